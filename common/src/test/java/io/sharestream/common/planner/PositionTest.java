package io.sharestream.common.planner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sharestream.common.errors.InvalidPositionException;
import io.sharestream.common.errors.TableRecreatedException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PositionTest {
  @Test
  void sparkOffsetJsonHasExactlyTheSpecFields() {
    Position p = new Position("tbl-1", 7, 3, -1, false);
    assertThat(p.toJson()).isEqualTo(
        "{\"sourceVersion\":1,\"tableId\":\"tbl-1\",\"tableVersion\":7,\"index\":3,\"isStartingVersion\":false}");
    assertThat(Position.fromJson(p.toJson())).isEqualTo(p);
    assertThat(Position.fromJson("{\"isStartingVersion\":true,\"index\":-1,\"tableVersion\":0,\"tableId\":\"x\","
        + "\"sourceVersion\":1}")).isEqualTo(Position.beforeVersion("x", 0, true));
  }

  @Test
  void aPositionInsideAVersionCarriesItsFileKeyInFormat2AndOldFormat1PositionsStillLoad() {
    String key = Position.fileKeyOf("c0ffee-file-id");
    assertThat(key).matches("[0-9a-f]{8}").isEqualTo(Position.fileKeyOf("c0ffee-file-id"))
        .isNotEqualTo(Position.fileKeyOf("c0ffee-file-iD"));
    Position p = new Position("tbl-1", 7, 3, -1, false, key);
    assertThat(p.toJson()).isEqualTo("{\"sourceVersion\":2,\"tableId\":\"tbl-1\",\"tableVersion\":7,\"index\":3,"
        + "\"isStartingVersion\":false,\"fileKey\":\"" + key + "\"}");
    assertThat(Position.fromJson(p.toJson()).fileKey()).isEqualTo(key);
    Position inFile = new Position("tbl-1", 7, 3, 41, false, key);
    assertThat(inFile.toMap()).containsEntry("offsetFormat", 2).containsEntry("fileKey", key);
    assertThat(Position.fromMap(inFile.toMap()).fileKey()).isEqualTo(key);
    // what older releases stored: format 1, no key; it loads and compares equal to the keyed position
    Position old = Position.fromJson("{\"sourceVersion\":1,\"tableId\":\"tbl-1\",\"tableVersion\":7,\"index\":3,"
        + "\"isStartingVersion\":false}");
    assertThat(old.fileKey()).isNull();
    assertThat(old).isEqualTo(p);
    Map<String, Object> oldMap = new LinkedHashMap<>(inFile.toMap());
    oldMap.put("offsetFormat", 1);
    oldMap.remove("fileKey");
    assertThat(Position.fromMap(oldMap).fileKey()).isNull();
    // a boundary position has no key and keeps format 1
    assertThat(new Position("tbl-1", 8, -1, -1, false, key).toJson()).contains("\"sourceVersion\":1")
        .doesNotContain("fileKey");
    assertThatThrownBy(() -> Position.fromJson("{\"sourceVersion\":2,\"tableId\":\"x\",\"tableVersion\":1,"
        + "\"index\":0,\"isStartingVersion\":false}")).isInstanceOf(InvalidPositionException.class)
        .hasMessageContaining("'fileKey'");
    assertThatThrownBy(() -> Position.fromJson("{\"sourceVersion\":2,\"tableId\":\"x\",\"tableVersion\":1,"
        + "\"index\":0,\"isStartingVersion\":false,\"fileKey\":\"xyz\"}")).hasMessageContaining("8 hex digits");
  }

  @Test
  void kafkaOffsetMapCarriesTheRowAndRoundTrips() {
    Position p = new Position("tbl-1", 7, 3, 41, false);
    Map<String, Object> m = p.toMap();
    assertThat(m).containsEntry("offsetFormat", 1).containsEntry("tableId", "tbl-1").containsEntry("tableVersion", 7L)
        .containsEntry("index", 3L).containsEntry("row", 41L).containsEntry("isStartingVersion", false);
    // Kafka hands stored numbers back as Long or Integer
    Map<String, Object> stored = new LinkedHashMap<>(m);
    stored.put("tableVersion", 7);
    assertThat(Position.fromMap(stored)).isEqualTo(p);
    assertThatThrownBy(p::toJson).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void storedPositionsAreValidatedWithAHint() {
    assertThatThrownBy(() -> Position.fromJson("not json")).isInstanceOf(InvalidPositionException.class)
        .hasMessageContaining("Delete the checkpoint");
    assertThatThrownBy(() -> Position.fromJson("{\"sourceVersion\":3,\"tableId\":\"x\",\"tableVersion\":1,"
        + "\"index\":-1,\"isStartingVersion\":false}")).isInstanceOf(InvalidPositionException.class)
        .hasMessageContaining("sourceVersion 3").hasMessageContaining("only understands 1 and 2");
    assertThatThrownBy(() -> Position.fromJson("{\"sourceVersion\":1,\"tableVersion\":1,\"index\":-1,"
        + "\"isStartingVersion\":false}")).hasMessageContaining("'tableId'");
    assertThatThrownBy(() -> Position.fromJson("{\"sourceVersion\":1,\"tableId\":\"x\",\"tableVersion\":\"1\","
        + "\"index\":-1,\"isStartingVersion\":false}")).hasMessageContaining("'tableVersion'");
    assertThatThrownBy(() -> Position.fromMap(Map.of("tableId", "x"))).hasMessageContaining("offsetFormat");
    assertThatThrownBy(() -> new Position("x", -1, -1, -1, false)).isInstanceOf(InvalidPositionException.class);
  }

  @Test
  void positionsOfAnotherTableOrMovingBackwardsAreRefused() {
    Position p = new Position("old-id", 5, 2, -1, false);
    assertThatThrownBy(() -> p.checkTable("new-id", "s.sc.t")).isInstanceOf(TableRecreatedException.class)
        .hasMessageContaining("recreated").hasMessageContaining("old-id").hasMessageContaining("new-id");
    assertThatThrownBy(() -> new Position("old-id", 5, 1, -1, false).checkNotBefore(p))
        .hasMessageContaining("backwards");
    new Position("old-id", 6, -1, -1, false).checkNotBefore(p);
  }

  @Test
  void orderIsVersionThenSnapshotBeforeChangesThenIndexThenRow() {
    Position snapshotEnd = new Position("t", 5, 9, -1, true);
    Position changesStart = Position.beforeVersion("t", 5, false);
    assertThat(snapshotEnd).isLessThan(changesStart);
    assertThat(new Position("t", 5, 2, 10, false)).isLessThan(new Position("t", 5, 2, -1, false)); // inside < done
    assertThat(new Position("t", 5, 2, -1, false)).isLessThan(new Position("t", 5, 3, 0, false));
    assertThat(Position.beforeVersion("t", 5, false)).isLessThan(new Position("t", 5, 0, 0, false));
  }
}
