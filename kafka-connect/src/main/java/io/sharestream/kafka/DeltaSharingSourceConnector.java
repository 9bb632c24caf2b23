package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * Streams new rows of Delta Sharing tables into Kafka topics: tables are spread over up to {@code tasks.max} tasks
 * ({@link DeltaSharingSourceTask}) by {@link TableAssignment}; settings are {@link DeltaSharingSourceConfig}'s.
 * {@link #validate} checks each setting, then the config against the server ({@link Preflight}). Exactly-once
 * capable: records are deterministic for an offset, so a worker with {@code exactly.once.source.support=enabled}
 * never duplicates them; transaction boundaries may also be left to the connector ({@link TransactionBoundaries}).
 */
public final class DeltaSharingSourceConnector extends SourceConnector {
  /** Task setting: the task's number among the connector's tasks (for metric names). */
  static final String TASK_ID = "sharestream.task.id";

  private Map<String, String> props;
  private List<TableRef> tables;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> props) {
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(props);
    this.props = new HashMap<>(props);
    this.tables = config.tables();
  }

  @Override
  public Class<? extends Task> taskClass() {
    return DeltaSharingSourceTask.class;
  }

  /** The tables over {@code min(maxTasks, tables)} tasks as {@link TableAssignment} spreads them. */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>();
    for (List<TableRef> group : TableAssignment.assign(tables, maxTasks)) {
      Map<String, String> c = new HashMap<>(props);
      c.put(DeltaSharingSourceConfig.TABLES, group.stream().map(TableRef::toString).collect(Collectors.joining(",")));
      c.put(TASK_ID, Integer.toString(configs.size()));
      configs.add(c);
    }
    return configs;
  }

  @Override
  public void stop() {
    props = null;
  }

  @Override
  public ConfigDef config() {
    return DeltaSharingSourceConfig.CONFIG_DEF;
  }

  /**
   * Every setting checked on its own, then together (one credential form; startingVersion or startingTimestamp),
   * then against the server when nothing else is wrong.
   */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    Config config = super.validate(connectorConfigs);
    Map<String, ConfigValue> values = config.configValues().stream()
        .collect(Collectors.toMap(ConfigValue::name, v -> v, (a, b) -> a, java.util.LinkedHashMap::new));
    String credentials = DeltaSharingSourceConfig.credentialProblem(connectorConfigs);
    if (credentials != null) {
      Preflight.error(values, DeltaSharingSourceConfig.credentialSetting(connectorConfigs), credentials);
    }
    if (given(connectorConfigs, DeltaSharingSourceConfig.STARTING_VERSION)
        && given(connectorConfigs, DeltaSharingSourceConfig.STARTING_TIMESTAMP)) {
      Preflight.error(values, DeltaSharingSourceConfig.STARTING_TIMESTAMP, "set either "
          + DeltaSharingSourceConfig.STARTING_VERSION + " or " + DeltaSharingSourceConfig.STARTING_TIMESTAMP
          + ", not both");
    }
    keyTablesConfigured(connectorConfigs, values);
    transactionsFitTheirTimeout(connectorConfigs, values);
    if (values.values().stream().allMatch(v -> v.errorMessages().isEmpty())) {
      Preflight.check(connectorConfigs, values);
    }
    return new Config(new ArrayList<>(values.values()));
  }

  /** Key columns may only name configured tables. */
  private static void keyTablesConfigured(Map<String, String> props, Map<String, ConfigValue> values) {
    try {
      List<TableRef> configured = DeltaSharingSourceConfig.parseTables(List.of(
          props.getOrDefault(DeltaSharingSourceConfig.TABLES, "").split(",")));
      for (TableRef t : DeltaSharingSourceConfig.parseKeyColumns(
          props.get(DeltaSharingSourceConfig.KEY_COLUMNS)).keySet()) {
        if (!configured.contains(t)) {
          Preflight.error(values, DeltaSharingSourceConfig.KEY_COLUMNS, "table " + t + " is not in "
              + DeltaSharingSourceConfig.TABLES);
        }
      }
    } catch (ConfigException | DeltaSharingException e) {
      // reported on the setting itself already
    }
  }

  /**
   * With connector-defined transactions and a producer transaction timeout set on the connector, transactions must
   * end before it (the worker's own producer.transaction.timeout.ms is not visible here).
   */
  private static void transactionsFitTheirTimeout(Map<String, String> props, Map<String, ConfigValue> values) {
    String boundary = props.getOrDefault(DeltaSharingSourceConfig.TRANSACTION_BOUNDARY, "").trim();
    String timeout = props.get(DeltaSharingSourceConfig.TRANSACTION_TIMEOUT_OVERRIDE);
    Object max = values.get(DeltaSharingSourceConfig.TRANSACTION_MAX_DURATION_MS).value();
    if (!boundary.equalsIgnoreCase("connector") || timeout == null || !(max instanceof Long) || (Long) max == 0) {
      return;
    }
    try {
      long limit = Long.parseLong(timeout.trim());
      if ((Long) max >= limit) {
        Preflight.error(values, DeltaSharingSourceConfig.TRANSACTION_MAX_DURATION_MS, "must be below "
            + DeltaSharingSourceConfig.TRANSACTION_TIMEOUT_OVERRIDE + " (" + limit + " ms), with room for reading "
            + "one file: the broker aborts a transaction open that long and the task fails");
      }
    } catch (NumberFormatException e) {
      // the worker reports a malformed producer setting
    }
  }

  private static boolean given(Map<String, String> props, String name) {
    String v = props.get(name);
    return v != null && !v.trim().isEmpty();
  }

  @Override
  public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
    return ExactlyOnceSupport.SUPPORTED;
  }

  @Override
  public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
    return ConnectorTransactionBoundaries.SUPPORTED;
  }

  /**
   * Checks offsets a user writes with {@code PATCH /connectors/{name}/offsets}: each partition must be one of the
   * configured tables, each offset a complete position of this connector's format for the table as it is now (same
   * table id, a version that exists or the next one); a null offset resets the table to the starting options.
   */
  @Override
  public boolean alterOffsets(Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(connectorConfig);
    List<TableRef> configured = config.tables();
    DeltaSharingClient client = null;
    for (Map.Entry<Map<String, ?>, Map<String, ?>> e : offsets.entrySet()) {
      try {
        TableRef table = SourceOffsets.table(e.getKey());
        if (!configured.contains(table)) {
          throw new ConnectException("Table " + table + " is not in this connector's '"
              + DeltaSharingSourceConfig.TABLES + "' " + configured + ".");
        }
        if (e.getValue() == null) {
          continue;
        }
        Position p = SourceOffsets.position(e.getValue(), table);
        if (client == null) {
          client = new DeltaSharingClient(config.profile(), config.clientSettings(io.sharestream.common.client
              .Sleeper.REAL));
        }
        p.checkTable(client.metadata(table, null, null).metadata().id(), table.toString());
        long latest = client.tableVersion(table);
        if (p.tableVersion() > latest + 1 || (p.tableVersion() == latest + 1 && p.index() >= 0)) {
          throw new ConnectException("The offset of " + table + " is at version " + p.tableVersion() + " but the "
              + "table's latest version is " + latest + ": use a version up to " + latest + " (index -1 and row -1 "
              + "to read it whole), or " + (latest + 1) + " with index -1 to read only what comes next.");
        }
      } catch (DeltaSharingException ex) {
        throw new ConnectException("Cannot alter the offset of " + e.getKey() + ": " + ex.getMessage(), ex);
      }
    }
    return true;
  }
}
