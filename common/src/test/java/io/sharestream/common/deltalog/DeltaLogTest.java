package io.sharestream.common.deltalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.client.FileListing;
import io.sharestream.common.client.QueryRequest;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.model.FileAction;
import io.sharestream.common.model.SharingAction;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.ColumnMappingMatrix;
import io.sharestream.testkit.delta.DeletionVectorMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table read from its {@code _delta_log} gives, at every version, the files a sharing server lists for it over
 * URLs: the same file ids (MD5 of the log path, the {@code fileidhash=parquet} scheme), sizes and deletion vectors,
 * through checkpoints, log cleanup, deletion vectors and column mapping.
 */
class DeltaLogTest {
  static final TableRef T = new TableRef("s", "sc", "t");
  @TempDir Path tmp;

  @Test
  void everySnapshotOfTheDeletionVectorMatrixListsTheFilesTheServerLists() throws Exception {
    for (boolean inline : new boolean[] {false, true}) {
      DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("dv" + inline), true, inline);
      assertEverySnapshotMatchesTheServer(table);
    }
  }

  @Test
  void everySnapshotOfAColumnMappedTableListsTheFilesTheServerLists() throws Exception {
    assertEverySnapshotMatchesTheServer(ColumnMappingMatrix.write(tmp.resolve("cm"), "name", true));
  }

  @Test
  void snapshotsAfterACheckpointAndLogCleanupComeFromTheCheckpoint() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("cp"), true, false);
    table.checkpoint(); // at the latest version
    table.append(java.util.Collections.singletonList(row(100)));
    table.cleanUpLogBefore(DeletionVectorMatrix.LATEST);
    DeltaLog log = new DeltaLog(new LocalLogFiles(table.dir()), "s.sc.t");
    assertThat(log.earliestVersion()).isEqualTo(DeletionVectorMatrix.LATEST);
    assertThat(log.latestVersion()).isEqualTo(DeletionVectorMatrix.LATEST + 1);
    assertEverySnapshotMatchesTheServer(table);
    assertThatThrownBy(() -> log.snapshot(DeletionVectorMatrix.LATEST - 1))
        .isInstanceOf(VersionNotAvailableException.class)
        .hasMessageContaining("can no longer be read");
  }

  @Test
  void everyCommitHoldsTheFilesTheServerListsForItsVersion() throws Exception {
    DeltaTableWriter table = DeletionVectorMatrix.write(tmp.resolve("history"), true, false);
    DeltaLog log = new DeltaLog(new LocalLogFiles(table.dir()), "s.sc.t");
    java.util.List<String> fromLog = new java.util.ArrayList<>();
    java.util.List<String> cdcFromLog = new java.util.ArrayList<>();
    long previous = Long.MIN_VALUE;
    for (LogCommit c : log.commits(1, log.latestVersion())) {
      assertThat(c.timestamp()).isGreaterThan(previous);
      previous = c.timestamp();
      for (Iterator<ObjectNode> it = c.actions(); it.hasNext(); ) {
        ObjectNode a = it.next();
        for (String kind : new String[] {"add", "remove", "cdc"}) {
          // a server's history leaves out what rewrote files without changing data (OPTIMIZE), as Delta does
          if (a.has(kind) && (kind.equals("cdc") || a.get(kind).path("dataChange").asBoolean(true))) {
            String line = c.version() + " " + kind + " " + md5(a.get(kind).get("path").asText());
            (kind.equals("cdc") ? cdcFromLog : fromLog).add(line);
          }
        }
      }
    }
    java.util.List<String> fromServer = new java.util.ArrayList<>();
    java.util.List<String> cdcFromServer = new java.util.ArrayList<>();
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      try (FileListing l = client.query(T, QueryRequest.changes(1, null))) {
        l.forEachRemaining(a -> {
          if (a instanceof FileAction) {
            FileAction f = (FileAction) a;
            fromServer.add(f.version() + " " + f.kind().name().toLowerCase(java.util.Locale.ROOT) + " " + f.id());
          }
        });
      }
      try (FileListing l = client.changes(T, io.sharestream.common.client.ChangesRequest.fromVersion(1))) {
        l.forEachRemaining(a -> {
          if (a instanceof FileAction && ((FileAction) a).kind() == FileAction.Kind.CDF) {
            cdcFromServer.add(((FileAction) a).version() + " cdc " + ((FileAction) a).id());
          }
        });
      }
    }
    assertThat(fromLog).containsExactlyInAnyOrderElementsOf(fromServer);
    assertThat(cdcFromLog).isNotEmpty().containsExactlyInAnyOrderElementsOf(cdcFromServer);
    assertThat(log.versionAtOrAfter(java.time.Instant.ofEpochMilli(previous))).isEqualTo(log.latestVersion());
    assertThat(log.versionAtOrAfter(java.time.Instant.ofEpochMilli(previous + 1))).isEqualTo(log.latestVersion() + 1);
  }

  private static Map<String, Object> row(long id) {
    Map<String, Object> r = new java.util.HashMap<>();
    r.put("id", id);
    return r;
  }

  private void assertEverySnapshotMatchesTheServer(DeltaTableWriter table) throws Exception {
    DeltaLog log = new DeltaLog(new LocalLogFiles(table.dir()), "s.sc.t");
    try (DeltaSharingServer server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start()) {
      DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
          ClientSettings.DEFAULT);
      for (long v = log.earliestVersion(); v <= log.latestVersion(); v++) {
        LogSnapshot snapshot = log.snapshot(v);
        Map<String, String> fromLog = new TreeMap<>();
        for (Iterator<ObjectNode> it = snapshot.files(); it.hasNext(); ) {
          ObjectNode add = it.next();
          fromLog.put(md5(add.get("path").asText()), describe(add.get("size").asLong(), add.get("deletionVector")));
        }
        Map<String, String> fromServer = new TreeMap<>();
        try (FileListing l = client.query(T, QueryRequest.atVersion(v))) {
          while (l.hasNext()) {
            SharingAction a = l.next();
            if (a instanceof FileAction) {
              FileAction f = (FileAction) a;
              fromServer.put(f.id(), f.size() + (f.deletionVector() == null ? ""
                  : " dv " + f.deletionVector().cardinality()));
            }
          }
          assertThat(snapshot.metadata().get("id").asText()).isEqualTo(l.metadata().id());
          assertThat(snapshot.metadata().get("schemaString").asText()).isEqualTo(l.metadata().schemaString());
        }
        assertThat(fromLog).as("%s at version %d", table.dir().getFileName(), v).isEqualTo(fromServer);
      }
    }
  }

  private static String describe(long size, JsonNode dv) {
    return size + (dv == null || dv.isNull() ? "" : " dv " + dv.get("cardinality").asLong());
  }

  static String md5(String path) throws Exception {
    byte[] d = MessageDigest.getInstance("MD5").digest(path.getBytes(StandardCharsets.UTF_8));
    return String.format("%032x", new BigInteger(1, d));
  }
}
