package io.sharestream.kafka;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.Sleeper;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.planner.Position;
import io.sharestream.common.profile.TableRef;
import java.time.Duration;
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
 * Streams new rows of Delta Sharing tables into Kafka topics: the tables {@link TableSelection} selects (named, or
 * listed in shares and watched by {@link TableDiscovery}) are spread over up to {@code tasks.max} tasks
 * ({@link DeltaSharingSourceTask}) by {@link TableAssignment}; settings are {@link DeltaSharingSourceConfig}'s.
 * {@link #validate} checks each setting, then the config against the server ({@link Preflight}). Exactly-once
 * capable: records are deterministic for an offset, so a worker with {@code exactly.once.source.support=enabled}
 * never duplicates them; transaction boundaries may also be left to the connector ({@link TransactionBoundaries}).
 */
public final class DeltaSharingSourceConnector extends SourceConnector {
  /** Task setting: the task's number among the connector's tasks (for metric names). */
  static final String TASK_ID = "sharestream.task.id";
  /** A task's share of records.in.flight.max, in its config. */
  static final String TASK_RECORDS_IN_FLIGHT = "sharestream.task.records.in.flight.max";
  /** How long {@link #taskConfigs} waits for the first listing of the shares (Connect asks again after a failure). */
  private static final Duration FIRST_LISTING_WAIT = Duration.ofSeconds(10);

  private Map<String, String> props;
  private TableSelection selection;
  /** With patterns in the selection: the shares' watch; else null. */
  private TableDiscovery discovery;

  @Override
  public String version() {
    return Version.get();
  }

  @Override
  public void start(Map<String, String> props) {
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(props);
    this.props = new HashMap<>(props);
    this.selection = config.tableSelection();
    if (selection.hasPatterns()) {
      discovery = new TableDiscovery(props.getOrDefault("name", "connector"), selection,
          new DeltaSharingClient(config.profileSource(), config.clientSettings(Sleeper.REAL)),
          config.tablesDiscoveryInterval(), context::requestTaskReconfiguration);
    }
  }

  @Override
  public Class<? extends Task> taskClass() {
    return DeltaSharingSourceTask.class;
  }

  /**
   * The selected tables over {@code min(maxTasks, tables)} tasks as {@link TableAssignment} spreads them, each task
   * given its tables by name.
   */
  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<TableRef> tables = discovery == null ? selection.named() : discovery.tables(FIRST_LISTING_WAIT);
    List<Map<String, String>> configs = new ArrayList<>();
    for (List<TableRef> group : TableAssignment.assign(tables, maxTasks)) {
      Map<String, String> c = new HashMap<>(props);
      c.remove(DeltaSharingSourceConfig.TABLES_INCLUDE_REGEX);
      c.remove(DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX);
      c.put(DeltaSharingSourceConfig.TABLES, group.stream().map(TableRef::toString).collect(Collectors.joining(",")));
      c.put(TASK_ID, Integer.toString(configs.size()));
      configs.add(c);
    }
    int budget = new DeltaSharingSourceConfig(props).getInt(DeltaSharingSourceConfig.RECORDS_IN_FLIGHT_MAX);
    String share = Integer.toString(Math.max(1, (budget + configs.size() - 1) / Math.max(1, configs.size())));
    configs.forEach(c -> c.put(TASK_RECORDS_IN_FLIGHT, share));
    return configs;
  }

  @Override
  public void stop() {
    if (discovery != null) {
      discovery.close();
      discovery = null;
    }
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
    String credentials = CredentialForms.credentialProblem(connectorConfigs);
    if (credentials != null) {
      Preflight.error(values, CredentialForms.credentialSetting(connectorConfigs), credentials);
    }
    if (given(connectorConfigs, DeltaSharingSourceConfig.STARTING_VERSION)
        && given(connectorConfigs, DeltaSharingSourceConfig.STARTING_TIMESTAMP)) {
      Preflight.error(values, DeltaSharingSourceConfig.STARTING_TIMESTAMP, "set either "
          + DeltaSharingSourceConfig.STARTING_VERSION + " or " + DeltaSharingSourceConfig.STARTING_TIMESTAMP
          + ", not both");
    }
    tablesSelected(connectorConfigs, values);
    transactionsFitTheirTimeout(connectorConfigs, values);
    pollCeilingCoversTheInterval(connectorConfigs, values);
    if (values.values().stream().allMatch(v -> v.errorMessages().isEmpty())) {
      Preflight.check(connectorConfigs, values);
    }
    return new Config(new ArrayList<>(values.values()));
  }

  /**
   * The table settings select something (each is checked on its own already), and key columns name only selected
   * tables.
   */
  private static void tablesSelected(Map<String, String> props, Map<String, ConfigValue> values) {
    List<String> settings = List.of(DeltaSharingSourceConfig.TABLES, DeltaSharingSourceConfig.TABLES_INCLUDE_REGEX,
        DeltaSharingSourceConfig.TABLES_EXCLUDE_REGEX);
    if (settings.stream().anyMatch(n -> !values.get(n).errorMessages().isEmpty())) {
      return;
    }
    TableSelection selection;
    try {
      selection = new TableSelection(list(props, settings.get(0)), list(props, settings.get(1)),
          list(props, settings.get(2)));
    } catch (ConfigException e) {
      Preflight.error(values, DeltaSharingSourceConfig.TABLES, e.getMessage());
      return;
    }
    try {
      for (TableRef t : KeyColumns.parse(
          props.get(DeltaSharingSourceConfig.KEY_COLUMNS)).keySet()) {
        if (!selection.matches(t)) {
          Preflight.error(values, DeltaSharingSourceConfig.KEY_COLUMNS, "table " + t + " is not selected by "
              + String.join(", ", settings));
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

  /** poll.interval.max.ms, when set, is at least poll.interval.ms. */
  private static void pollCeilingCoversTheInterval(Map<String, String> props, Map<String, ConfigValue> values) {
    Object interval = values.get(DeltaSharingSourceConfig.POLL_INTERVAL_MS).value();
    Object max = values.get(DeltaSharingSourceConfig.POLL_INTERVAL_MAX_MS).value();
    if (interval instanceof Long && max instanceof Long) {
      String problem = DeltaSharingSourceConfig.pollIntervalMaxProblem(props, (Long) interval, (Long) max);
      if (problem != null) {
        Preflight.error(values, DeltaSharingSourceConfig.POLL_INTERVAL_MAX_MS, problem);
      }
    }
  }

  private static List<String> list(Map<String, String> props, String name) {
    return List.of(props.getOrDefault(name, "").split(","));
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
   * Checks offsets a user writes with {@code PATCH /connectors/{name}/offsets}: each partition must be a table the
   * connector selects, each offset a complete position of this connector's format for the table as it is now (same
   * table id, a version that exists or the next one); a null offset resets the table to the starting options.
   */
  @Override
  public boolean alterOffsets(Map<String, String> connectorConfig, Map<Map<String, ?>, Map<String, ?>> offsets) {
    DeltaSharingSourceConfig config = new DeltaSharingSourceConfig(connectorConfig);
    TableSelection selection = config.tableSelection();
    DeltaSharingClient client = null;
    try {
      for (Map.Entry<Map<String, ?>, Map<String, ?>> e : offsets.entrySet()) {
        try {
          TableRef table = SourceOffsets.table(e.getKey());
          if (!selection.matches(table)) {
            throw new ConnectException("Table " + table + " is not selected by this connector (" + selection + ").");
          }
          if (e.getValue() == null) {
            continue;
          }
          Position p = SourceOffsets.position(e.getValue(), table);
          if (client == null) {
            client = new DeltaSharingClient(config.profileSource(), config.clientSettings(Sleeper.REAL));
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
    } finally {
      if (client != null) {
        client.close();
      }
    }
    return true;
  }
}
