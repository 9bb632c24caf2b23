package io.sharestream.cli;

import io.sharestream.common.profile.TableRef;
import picocli.CommandLine.Parameters;

/** The table a command reads, named {@code <share>.<schema>.<table>}. */
final class TableArgument {
  @Parameters(paramLabel = "<share>.<schema>.<table>", converter = Converters.Table.class,
      description = "The shared table.")
  private TableRef table;

  TableRef get() {
    return table;
  }
}
