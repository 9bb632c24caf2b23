package io.sharestream.common.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.SharedViewException;
import io.sharestream.common.parquet.ReadSettings;
import io.sharestream.common.planner.BatchPlanner;
import io.sharestream.common.planner.FileLister;
import io.sharestream.common.planner.SharingStreamPlanner;
import io.sharestream.common.planner.StreamOptions;
import io.sharestream.common.planner.UnitReader;
import io.sharestream.common.planner.UnitUrls;
import io.sharestream.common.planner.WorkUnit;
import io.sharestream.common.profile.TableRef;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import io.sharestream.testkit.server.Endpoint;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shared views and materialized views, answered as Databricks answers them: without versions, asynchronously. */
class SharedViewTest {
  static final TableRef VIEW = new TableRef("s", "sc", "v");

  @TempDir Path tmp;
  DeltaSharingServer server;
  Kit.RecordingSleeper sleeper = new Kit.RecordingSleeper();
  DeltaSharingClient client;

  @BeforeEach
  void start() {
    DeltaTableWriter backing = DeltaTableWriter.create(tmp.resolve("v"), DeltaSharingClientTest.SCHEMA).commit();
    backing.append(DeltaSharingClientTest.rows(0, 10), 4); // 3 files
    backing.append(DeltaSharingClientTest.rows(10, 12), 2); // 1 file
    server = DeltaSharingServer.builder().view("s", "sc", "v", backing.dir()).start();
    client = Kit.client(server, sleeper);
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  @Test
  void aViewsMetadataComesWithoutAVersionAndItsVersionIsRefusedNamingTheView() {
    TableSnapshotInfo info = client.metadata(VIEW, null, null);
    assertThat(info.isView()).isTrue();
    assertThat(info.metadata().schema().fields()).isNotEmpty();

    assertThatThrownBy(() -> client.tableVersion(VIEW)).isInstanceOf(SharedViewException.class)
        .hasMessageContaining("s.sc.v is a shared view or materialized view")
        .hasMessageContaining("spark.read.format(\"deltaSharing\")");
  }

  @Test
  void aViewIsReadInBatchThroughItsAsynchronousQuery() {
    BatchPlanner.Plan plan = BatchPlanner.snapshot(client, VIEW, null, null, null, null, null);

    assertThat(plan.version()).isEqualTo(TableSnapshotInfo.NO_VERSION);
    assertThat(plan.units()).hasSize(4);
    List<Object> ids = new ArrayList<>();
    for (WorkUnit u : plan.units()) {
      UnitUrls urls = new UnitUrls(new FileLister(client, VIEW, null), u);
      try (UnitReader r = UnitReader.open(client, u, urls, plan.metadata().schema(), ReadSettings.DEFAULT, 0)) {
        r.forEachRemaining(c -> ids.add(c.row().get("id")));
      }
    }
    assertThat(ids).hasSize(12).doesNotHaveDuplicates();
    assertThat(server.requests().entries(Endpoint.QUERY_STATUS)).isNotEmpty();
  }

  @Test
  void aStreamOfAViewIsRefusedAtItsStartNamingTheViewAndWhy() {
    assertThatThrownBy(() -> new SharingStreamPlanner(client, VIEW, StreamOptions.parse(Map.of()), Duration.ZERO,
        Clock.systemUTC())).isInstanceOf(SharedViewException.class)
        .hasMessageContaining("s.sc.v is a shared view").hasMessageContaining("no history to stream");
    assertThat(server.requests().entries(Endpoint.QUERY)).isEmpty();
  }

  @Test
  void aViewWhoseServerRefusesItsVersionIsStillRecognisedAsAView() {
    DeltaSharingServer refusing = DeltaSharingServer.builder().viewVersionRefused(true)
        .view("s", "sc", "v", tmp.resolve("v")).start();
    try (DeltaSharingClient c = Kit.client(refusing, sleeper)) {
      assertThatThrownBy(() -> c.tableVersion(VIEW)).isInstanceOf(SharedViewException.class)
          .hasMessageContaining("s.sc.v is a shared view or materialized view");
      assertThatThrownBy(() -> new SharingStreamPlanner(c, VIEW, StreamOptions.parse(Map.of()), Duration.ZERO,
          Clock.systemUTC())).isInstanceOf(SharedViewException.class).hasMessageContaining("no history to stream");
      assertThatThrownBy(() -> c.tableVersion(new TableRef("s", "sc", "missing")))
          .isInstanceOf(io.sharestream.common.errors.TableNotFoundException.class);
    } finally {
      refusing.close();
    }
  }
}
