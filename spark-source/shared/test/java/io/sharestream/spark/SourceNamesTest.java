package io.sharestream.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.testkit.delta.ChangeMatrix;
import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.server.DeltaSharingServer;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source's two names: {@code deltaSharing} (the reference client's) and {@code sharestream}, which still works
 * where another source also registers {@code deltaSharing} and Spark refuses that name as ambiguous.
 */
class SourceNamesTest {
  static SparkSession spark;
  @TempDir Path tmp;
  DeltaSharingServer server;

  @BeforeAll
  static void session() {
    spark = TestSpark.session();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private String serve() {
    DeltaTableWriter table = DeltaTableWriter.create(tmp.resolve("t"), ChangeMatrix.SCHEMA).commit();
    table.append(ChangeMatrix.rows(0, 5)); // 1
    server = DeltaSharingServer.builder().table("s", "sc", "t", table.dir(), true).start();
    return server.writeProfile(tmp.resolve("p.share")) + "#s.sc.t";
  }

  @Test
  void sharestreamIsTheSourceBesideAnotherDeltaSharingSourceWhoseNameIsThenAmbiguous() throws Exception {
    String path = serve();
    assertThat(spark.read().format("sharestream").load(path).collectAsList())
        .containsExactlyInAnyOrderElementsOf(spark.read().format("deltaSharing").load(path).collectAsList())
        .hasSize(5);
    Path services = tmp.resolve("other/META-INF/services/org.apache.spark.sql.sources.DataSourceRegister");
    Files.createDirectories(services.getParent());
    Files.writeString(services, AnotherDeltaSharingSource.class.getName() + "\n");
    ClassLoader before = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader withOther = new URLClassLoader(new URL[] {tmp.resolve("other").toUri().toURL()}, before)) {
      Thread.currentThread().setContextClassLoader(withOther);
      assertThatThrownBy(() -> spark.read().format("deltaSharing").load(path))
          .hasMessageContaining("Multiple sources found for deltaSharing")
          .hasMessageContaining(AnotherDeltaSharingSource.class.getName());
      assertThat(spark.read().format("sharestream").load(path).count()).isEqualTo(5);
    } finally {
      Thread.currentThread().setContextClassLoader(before);
    }
  }
}
