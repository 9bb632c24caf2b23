package io.sharestream.cli;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import io.sharestream.testkit.delta.Samples;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/** Tables the tests serve, written by the kit with commit times from a fixed clock (1 ms apart). */
final class Fixtures {
  static final Instant CREATED = Instant.parse("2024-01-01T00:00:00Z");
  static final DeltaType.StructType ORDERS = DeltaType.struct(DeltaType.field("id", DeltaType.LONG, false),
      DeltaType.field("name", DeltaType.STRING), DeltaType.field("price", DeltaType.decimal(10, 2)),
      DeltaType.field("day", DeltaType.DATE), DeltaType.field("at", DeltaType.TIMESTAMP));

  private Fixtures() {}

  /**
   * Orders with the change data feed: 0 create; 1 append ids 1, 2, 3 (one file); 2 UPDATE id 2 (name b to b2);
   * 3 DELETE id 3.
   */
  static DeltaTableWriter orders(Path dir) {
    DeltaTableWriter t = DeltaTableWriter.create(dir, ORDERS).changeDataFeed(true)
        .clock(Clock.fixed(CREATED, ZoneOffset.UTC)).commit();
    t.append(List.of(order(1, "a", "1.50"), order(2, "b", "2.25"), order(3, "c", "3.00")));
    t.updateWhere(r -> r.get("id").equals(2L), r -> {
      r.put("name", "b2");
      return r;
    });
    t.deleteWhere(r -> r.get("id").equals(3L));
    return t;
  }

  static java.util.Map<String, Object> order(long id, String name, String price) {
    return Samples.row("id", id, "name", name, "price", new BigDecimal(price), "day",
        LocalDate.of(2024, 1, (int) id), "at", Instant.parse("2024-01-0" + id + "T10:00:00.123456Z"));
  }
}
