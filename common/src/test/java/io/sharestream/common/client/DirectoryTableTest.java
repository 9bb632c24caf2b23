package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.deltalog.DeltaLog;
import io.sharestream.common.deltalog.LocalLogFiles;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.ProtocolInfo;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.model.TableMetadata;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table answered from its Delta log gives the listings a sharing server gives over URLs, line for line but for
 * the URLs: snapshots at every version, history from every version (the query endpoint's adds and removes, the
 * changes endpoint's change data), historical metadata and protocol, file ids, versions, commit times, sizes,
 * partition values, record counts and deletion vectors.
 */
class DirectoryTableTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  @TempDir Path tmp;

  @Test
  void everyListingOfTheDeletionVectorMatrixEqualsTheServersButForTheUrls() {
    for (boolean inline : new boolean[] {false, true}) {
      DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv" + inline), true, inline);
      assertListingsMatch(table);
    }
  }

  @Test
  void everyListingOfTheChangeMatrixWithAndWithoutChangeDataEqualsTheServers() {
    for (boolean cdf : new boolean[] {true, false}) {
      assertListingsMatch(ChangeMatrix.write(tmp.resolve("changes" + cdf), cdf));
    }
  }

  @Test
  void everyListingOfAColumnMappedTableWithRenamesAndDropsEqualsTheServers() {
    assertListingsMatch(ColumnMappingMatrix.write(tmp.resolve("cm"), "name", true));
  }

  @Test
  void listingsAfterACheckpointEqualTheServers() {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("cp"), false, false);
    table.checkpoint();
    table.append(java.util.Collections.singletonList(java.util.Collections.<String, Object>singletonMap("id", 99L)));
    assertListingsMatch(table);
  }

  private void assertListingsMatch(DeltaTableWriter table) {
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      DirectoryTable dir = new DirectoryTable("s.sc.t", new DeltaLog(LocalLogFiles.of(table.dir()), "s.sc.t"),
          path -> new StorageUrls.Signed("file:" + path, Long.MAX_VALUE), ClientSettings.DEFAULT.readerFeatures());
      long latest = client.tableVersion(T);
      assertThat(dir.tableVersion()).isEqualTo(latest);
      for (long v = 0; v <= latest; v++) {
        String at = table.dir().getFileName() + " v" + v;
        long version = v;
        assertThat(snapshot(outcome(() -> dir.query(QueryRequest.atVersion(version))))).as("snapshot %s", at)
            .isEqualTo(snapshot(outcome(() -> client.query(T, QueryRequest.atVersion(version)))));
        assertThat(outcome(() -> dir.query(QueryRequest.changes(version, null)))).as("history from %s", at)
            .isEqualTo(outcome(() -> client.query(T, QueryRequest.changes(version, null))));
        assertThat(outcome(() -> dir.changes(ChangesRequest.fromVersion(version)))).as("changes from %s", at)
            .isEqualTo(outcome(() -> client.changes(T, ChangesRequest.fromVersion(version))));
        TableSnapshotInfo m = client.metadata(T, v, null);
        assertThat(metadata(dir.metadata(v, null).metadata().withVersion(v))).as("metadata %s", at)
            .isEqualTo(metadata(m.metadata().withVersion(v)));
      }
      assertThat(snapshot(lines(dir.query(QueryRequest.latest()))))
          .isEqualTo(snapshot(lines(client.query(T, QueryRequest.latest()))));
    }
  }

  /**
   * A snapshot's lines without dataChange, which means nothing in a snapshot: a "file" line has none, an "add" line
   * carries the log's (false after an OPTIMIZE, or from a checkpoint).
   */
  private static List<String> snapshot(List<String> lines) {
    List<String> out = new ArrayList<>();
    lines.forEach(l -> out.add(l.replaceAll(" dc(true|false)", "")));
    return out;
  }

  /** The listing's {@link #lines}, or the kind of error that refused it (and the version it names). */
  private static List<String> outcome(java.util.function.Supplier<FileListing> listing) {
    try {
      return lines(listing.get());
    } catch (io.sharestream.common.errors.ChangeDataNotRecordedException e) {
      return java.util.Collections.singletonList("refused: change data not recorded at v" + e.version());
    }
  }

  /** A listing's head and actions as comparable text, URLs left out; sorted within a version (file order is). */
  private static List<String> lines(FileListing l) {
    List<String> out = new ArrayList<>();
    try (FileListing listing = l) {
      out.add("head v" + listing.tableVersion() + " " + protocol(listing.protocol()) + " "
          + metadata(listing.metadata()));
      List<String> files = new ArrayList<>();
      while (listing.hasNext()) {
        SharingAction a = listing.next();
        if (a instanceof FileAction) {
          FileAction f = (FileAction) a;
          // a snapshot's files: "file" lines in the parquet format, "add" in the delta format, read alike
          String kind = f.kind() == FileAction.Kind.FILE ? "ADD" : f.kind().toString();
          files.add(f.version() + " " + kind + " " + f.id() + " t" + f.timestamp() + " " + f.size() + " "
              + f.partitionValues() + " n" + f.numRecords() + " dc" + f.dataChange()
              + (f.deletionVector() == null ? "" : " dv" + f.deletionVector().cardinality()));
        } else if (a instanceof TableMetadata) {
          files.add(((TableMetadata) a).version() + " " + metadata((TableMetadata) a));
        } else if (a instanceof ProtocolInfo) {
          files.add(((ProtocolInfo) a).version() + " " + protocol((ProtocolInfo) a));
        }
      }
      files.sort(null);
      out.addAll(files);
    }
    return out;
  }

  private static String protocol(ProtocolInfo p) {
    return "protocol(" + p.minReaderVersion() + "," + p.readerFeatures() + ")";
  }

  /**
   * The metadata as compared; the change data feed's property by the name the parquet format gives it (servers drop
   * its {@code delta.} prefix there; the log, and the delta format, keep it: the client reads either).
   */
  private static String metadata(TableMetadata m) {
    Map<String, String> configuration = new TreeMap<>();
    m.configuration().forEach((k, v) -> configuration.put(k.equals("delta.enableChangeDataFeed")
        ? "enableChangeDataFeed" : k, v));
    return "metadata(" + m.id() + "," + m.version() + "," + m.schemaString().hashCode() + ","
        + m.partitionColumns() + "," + configuration + ")";
  }
}
