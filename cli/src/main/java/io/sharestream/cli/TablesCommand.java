package io.sharestream.cli;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.DeltaSharingException;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.model.ListedItem;
import io.sharestream.common.profile.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tables}: every table of the profile's shares (or of one) with its latest version, whether it is shared with
 * history, whether its change data feed is on, and the reader features it needs. A table this reader cannot read
 * is listed as {@code unreadable}, and the command then fails with the first such table's reason.
 */
@Command(name = "tables", description = "List every table with its version, history sharing, change data feed and "
    + "reader features (two requests per table).")
final class TablesCommand implements Callable<Integer> {
  @Mixin
  private HelpOption help;
  @Mixin
  private ConnectionOptions connection;
  @Spec
  private CommandSpec spec;

  @Option(names = "--share", paramLabel = "<share>", description = "Only the tables of this share.")
  private String share;

  @Override
  public Integer call() {
    TextTable out = new TextTable(List.of("TABLE", "VERSION", "HISTORY", "CDF", "READER FEATURES"));
    List<String> failures = new ArrayList<>();
    DeltaSharingException first = null;
    int probed = 0;
    try (DeltaSharingClient client = connection.connect()) {
      for (String s : shares(client)) {
        for (var it = client.listAllTables(s); it.hasNext(); ) {
          ListedItem t = it.next();
          TableRef table = new TableRef(t.share(), t.schema(), t.name());
          Stderr.status("probing " + table + " (" + (++probed) + ")...");
          try {
            TableProbe p = TableProbe.of(client, table);
            out.add(List.of(table.toString(), p.version(), p.history(), p.changeDataFeed(), p.readerFeatures()));
          } catch (UnauthorizedException | InvalidProfileException e) {
            throw e; // the profile's, not the table's: no other table would answer
          } catch (DeltaSharingException e) { // the table's own failure: listed, and the others still are
            boolean unreadable = e instanceof UnsupportedTableFeatureException
                || e instanceof DeltaFormatRequiredException;
            out.add(List.of(table.toString(), "-", "-", "-", unreadable ? "unreadable" : "error"));
            failures.add(table + ": " + Failures.message(e));
            first = first == null ? e : first;
          }
        }
      }
    }
    Stderr.clearStatus();
    out.print(spec.commandLine().getOut());
    spec.commandLine().getOut().flush();
    failures.forEach(Stderr::note);
    return first == null ? 0 : Failures.exitCode(first);
  }

  private List<String> shares(DeltaSharingClient client) {
    if (share != null) {
      return List.of(share);
    }
    List<String> all = new ArrayList<>();
    client.listShares().forEachRemaining(s -> all.add(s.name()));
    return all;
  }
}
