package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.TableMetadata;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code describe}: what a table is at its latest version: version, history sharing, partition columns, protocol,
 * column mapping mode, change data feed, and its schema under logical names with types and nullability.
 */
@Command(name = "describe", description = "Show a table's version, protocol, column mapping, change data feed, "
    + "partition columns and schema.")
final class DescribeCommand implements Callable<Integer> {
  private static final String COLUMN_MAPPING_MODE = "delta.columnMapping.mode";

  @Mixin
  private HelpOption help;
  @Mixin
  private ConnectionOptions connection;
  @Spec
  private CommandSpec spec;

  @Mixin
  private TableArgument table;

  @Override
  public Integer call() {
    TableProbe p;
    try (DeltaSharingClient client = connection.connect()) {
      p = TableProbe.of(client, table.get());
    }
    TableMetadata m = p.snapshot().metadata();
    ProtocolInfo protocol = p.snapshot().protocol();
    PrintWriter out = spec.commandLine().getOut();
    line(out, "table", table.get().toString());
    line(out, "version", p.snapshot().isView() ? "- (a shared view: no versions, batch reads only)" : p.version());
    line(out, "history shared", TableProbe.yesNo(p.historyShared()));
    line(out, "partition columns", m.partitionColumns().isEmpty() ? "-" : String.join(",", m.partitionColumns()));
    line(out, "min reader version", Integer.toString(protocol.minReaderVersion()));
    line(out, "reader features", p.readerFeatures());
    line(out, "column mapping", m.configuration().getOrDefault(COLUMN_MAPPING_MODE, "none"));
    String cdf = p.changeDataFeed();
    line(out, "change data feed", cdf.equals("yes") ? "on" : cdf.equals("no") ? "off"
        : cdf.equals("unknown") ? "unknown (history not shared: the server does not say)" : "- (a shared view)");
    out.println("schema:");
    SchemaTree.lines(m.schema()).forEach(out::println);
    out.flush();
    return 0;
  }

  private static void line(PrintWriter out, String key, String value) {
    out.printf("%-19s %s%n", key + ":", value);
  }
}
