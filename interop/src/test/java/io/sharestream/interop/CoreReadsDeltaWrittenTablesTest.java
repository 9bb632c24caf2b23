package io.sharestream.interop;

import static org.assertj.core.api.Assertions.assertThat;

import io.sharestream.common.client.AccessSettings;
import io.sharestream.common.client.ClientSettings;
import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.AdmissionLimits;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.Position;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.StreamPlanner;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.DeltaSharingProfile;
import io.sharestream.common.profile.TableRef;
import io.sharestream.common.storage.StorageSettings;
import io.sharestream.common.types.Row;
import io.sharestream.common.types.StructType;
import io.sharestream.testkit.server.AccessMode;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables Delta Lake 3.2 wrote with deletion vectors and column mapping, served by the kit in the delta format (by a
 * server that answers history in it, by one that refuses it, and for directory access only): the core's snapshot at every version, and its stream
 * in every mode from version 1, give exactly Delta's own rows: {@code versionAsOf}, and its change data feed per
 * version where recorded, else the difference of Delta's snapshots (SPEC §4b's exact derivation).
 */
class CoreReadsDeltaWrittenTablesTest {
  static final TableRef T = new TableRef("s", "sc", "t");

  @BeforeAll
  static void writeTables() {
    DeltaFixtures.prepare(DeltaFixtures::deletionVectors, DeltaFixtures::deletionVectorsWithCdf,
        DeltaFixtures::columnMappingName, DeltaFixtures::columnMappingId, DeltaFixtures::columnMappingUpgraded);
  }

  private interface Check {
    void run(DeltaSharingClient client, DeltaFixtures.Fixture f, boolean history);
  }

  /**
   * Runs {@code check} for {@code f} served by a server that answers history in the delta format, one that does not,
   * and shared for directory access only (the client reads Delta's log and files from the kit's S3 store; it has the
   * change data files, as history does).
   */
  private static void served(DeltaFixtures.Fixture f, Check check) {
    for (String serving : List.of("history", "snapshots", "directory")) {
      boolean directory = serving.equals("directory");
      DeltaSharingServer.Builder b = DeltaSharingServer.builder().table("s", "sc", "t", f.dir(), true)
          .historyInDeltaFormat(!serving.equals("snapshots"));
      if (directory) {
        b.accessModes("s.sc.t", AccessMode.DIR);
      }
      try (DeltaSharingServer server = b.start()) {
        ClientSettings settings = !directory ? ClientSettings.DEFAULT : ClientSettings.DEFAULT.withAccess(
            AccessSettings.DEFAULT.withStorage(StorageSettings.defaults().withS3Endpoint(server.objectStore()
                .endpoint()).withS3PathStyle(true).withS3Region(server.objectStore().region())));
        DeltaSharingClient client = new DeltaSharingClient(DeltaSharingProfile.fromJson(server.profileJson()),
            settings);
        check.run(client, f, !serving.equals("snapshots"));
        if (directory) { // a client that knows nothing of the table yet may ask for URLs once, and be refused
          assertThat(server.requests().count(Endpoint.OBJECT_STORE)).as("read from the store").isPositive();
          for (Endpoint e : List.of(Endpoint.QUERY, Endpoint.CHANGES)) {
            assertThat(server.requests().entries(e)).as("no file by URL").allMatch(r -> r.status != 200);
          }
        }
      }
    }
  }

  private static List<DeltaFixtures.Fixture> all() {
    return List.of(DeltaFixtures.deletionVectors(), DeltaFixtures.deletionVectorsWithCdf(),
        DeltaFixtures.columnMappingName(), DeltaFixtures.columnMappingId(), DeltaFixtures.columnMappingUpgraded());
  }

  /** A row as canonical JSON (logical names, keys sorted), optionally with its change type. */
  private static String canonical(Row row, String changeType) {
    Map<String, Object> m = map(row);
    if (changeType != null) {
      m.put("_change_type", changeType);
    }
    return DeltaFixtures.canonical(m);
  }

  private static Map<String, Object> map(Row row) {
    Map<String, Object> m = new LinkedHashMap<>();
    StructType schema = row.schema();
    for (int i = 0; i < row.size(); i++) {
      m.put(schema.field(i).name(), value(row.get(i)));
    }
    return m;
  }

  private static Object value(Object v) {
    if (v instanceof Row) {
      return map((Row) v);
    }
    if (v instanceof List) {
      return ((List<?>) v).stream().map(CoreReadsDeltaWrittenTablesTest::value).collect(Collectors.toList());
    }
    return v;
  }

  @Test
  void snapshotsAtEveryVersionAreDeltasOwn() {
    for (DeltaFixtures.Fixture f : all()) {
      NavigableMap<Long, List<String>> delta = f.snapshotRowsByVersion();
      served(f, (client, fixture, history) -> {
        for (long v : delta.keySet()) {
          BatchPlanner.Plan plan = BatchPlanner.snapshot(client, T, v, null, null, null, null);
          List<String> rows = new ArrayList<>();
          for (WorkUnit u : plan.units()) {
            try (UnitReader r = UnitReader.open(client, u, new UnitUrls(new FileLister(client, T, null), u),
                u.schema(), ReadSettings.DEFAULT, 0)) {
              r.forEachRemaining(c -> rows.add(canonical(c.row(), null)));
            }
          }
          rows.sort(Comparator.naturalOrder());
          assertThat(rows).as("%s at version %d (%s)", f.name(), v, f.operations().get(v))
              .isEqualTo(delta.get(v));
        }
      });
    }
  }

  /**
   * The stream from version 1 in {@code options}, rows per version: canonical rows with change types, or (under
   * {@code key}) any projection of them.
   */
  private static NavigableMap<Long, List<String>> stream(DeltaSharingClient client, Map<String, String> options,
      Function<String, String> key) {
    Map<String, String> all = new LinkedHashMap<>(options);
    all.put("startingVersion", "1");
    all.put("maxVersionsPerRpc", "4");
    NavigableMap<Long, List<String>> out = new TreeMap<>();
    try (SharingStreamPlanner p = new SharingStreamPlanner(client, T, StreamOptions.parse(all), Duration.ZERO,
        Clock.systemUTC())) {
      Position pos = p.initialPosition();
      for (int guard = 0; guard < 1000; guard++) {
        StreamPlanner.Plan plan = p.plan(pos, AdmissionLimits.files(3));
        for (WorkUnit u : plan.units()) {
          try (UnitReader r = UnitReader.open(client, u, p.urls(u), u.schema(), ReadSettings.DEFAULT, 0)) {
            r.forEachRemaining(c -> out.computeIfAbsent(u.version(), x -> new ArrayList<>())
                .add(key.apply(canonical(c.row(), c.changeType()))));
          }
        }
        if (plan.end().equals(pos)) {
          break;
        }
        pos = plan.end();
      }
    }
    out.values().forEach(l -> l.sort(Comparator.naturalOrder()));
    return out;
  }

  /**
   * Delta's changes per version, keyed: its change data feed where it recorded change data files and the history is
   * read (a server that refuses history gives no change data files), else the difference of its snapshots.
   */
  private static NavigableMap<Long, List<String>> deltaChanges(DeltaFixtures.Fixture f, boolean history,
      Function<String, String> key) {
    NavigableMap<Long, List<String>> out = new TreeMap<>();
    NavigableMap<Long, List<String>> diff = f.snapshotDiffByVersion();
    for (long v = 1; v <= f.latestVersion(); v++) {
      boolean cdc = !f.actions(v, "cdc").isEmpty();
      List<String> rows = history && cdc ? f.changeFeedByVersion().get(v) : diff.get(v);
      if (rows != null && !rows.isEmpty()) {
        List<String> keyed = rows.stream().map(key).sorted().collect(Collectors.toList());
        out.put(v, keyed);
      }
    }
    return out;
  }

  /** {@code id:type} rows without the pairs of a delete and an insert of the same id. */
  private static List<String> net(List<String> rows) {
    List<String> out = new ArrayList<>(rows);
    for (String r : rows) {
      if (r.endsWith(":delete") && out.contains(r.replace(":delete", ":insert"))) {
        out.remove(r);
        out.remove(r.replace(":delete", ":insert"));
      }
    }
    return out;
  }

  private static String idAndType(String row) {
    Map<String, Object> m = DeltaFixtures.parse(row);
    return m.get("id") + ":" + m.get("_change_type");
  }

  @Test
  void streamsOfDeletionVectorTablesGiveDeltasRowsInEveryMode() {
    for (DeltaFixtures.Fixture f : List.of(DeltaFixtures.deletionVectors(), DeltaFixtures.deletionVectorsWithCdf())) {
      served(f, (client, fixture, history) -> {
        NavigableMap<Long, List<String>> changes = deltaChanges(f, history, Function.identity());
        assertThat(stream(client, Map.of("readChangeFeed", "true"), Function.identity()))
            .as("%s readChangeFeed, history %s", f.name(), history).isEqualTo(changes);
        assertThat(stream(client, Map.of(), Function.identity()))
            .as("%s default, history %s", f.name(), history).isEqualTo(newImages(changes));
        NavigableMap<Long, List<String>> appends = new TreeMap<>(newImages(changes));
        appends.keySet().removeIf(v -> !f.actions(v, "remove").isEmpty());
        assertThat(stream(client, Map.of("skipChangeCommits", "true"), Function.identity()))
            .as("%s skipChangeCommits, history %s", f.name(), history).isEqualTo(appends);
      });
    }
  }

  /** The rows a default stream emits of each version's changes: inserts and post-images. */
  private static NavigableMap<Long, List<String>> newImages(NavigableMap<Long, List<String>> changes) {
    NavigableMap<Long, List<String>> out = new TreeMap<>();
    changes.forEach((v, rows) -> {
      List<String> kept = rows.stream().filter(r -> r.contains("\"_change_type\":\"insert\"")
          || r.contains("\"_change_type\":\"update_postimage\"")).collect(Collectors.toList());
      if (!kept.isEmpty()) {
        out.put(v, kept);
      }
    });
    return out;
  }

  @Test
  void streamsOfColumnMappedTablesGiveDeltasChangesPerVersion() {
    for (DeltaFixtures.Fixture f : List.of(DeltaFixtures.columnMappingName(), DeltaFixtures.columnMappingId(),
        DeltaFixtures.columnMappingUpgraded())) {
      served(f, (client, fixture, history) -> {
        // read under the latest schema (by physical name or id): compared by row id and change type
        NavigableMap<Long, List<String>> rows = stream(client, Map.of("readChangeFeed", "true"),
            CoreReadsDeltaWrittenTablesTest::idAndType);
        if (!history) {
          // without change data files (snapshots), a DELETE that rewrote files without deletion vectors is
          // derived the SPEC §4 way: the removed files' rows as deletes, the added files' as inserts; net of the
          // rows deleted and inserted again, that is Delta's change
          rows.replaceAll((v, r) -> net(r));
          rows.values().removeIf(List::isEmpty);
        }
        assertThat(rows).as("%s readChangeFeed, history %s", f.name(), history)
            .isEqualTo(deltaChanges(f, history, CoreReadsDeltaWrittenTablesTest::idAndType));
      });
    }
  }
}
