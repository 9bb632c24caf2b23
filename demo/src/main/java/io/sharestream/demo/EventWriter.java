package io.sharestream.demo;

import io.sharestream.testkit.delta.DeltaTableWriter;
import io.sharestream.testkit.delta.DeltaType;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The demo's table and its writer: a Delta table of web shop events (with change data feed and deletion vectors on,
 * so it is shared in the {@code delta} response format), partitioned by day, and a step that commits as a busy
 * table does: mostly appends of a few dozen events, now and then an UPDATE (refunds: amount set to zero) or a DELETE
 * (a user's events erased), in a fixed cycle. Every row it commits is remembered as an {@link Expected} change, the
 * ground truth the demo checks both engines against.
 *
 * <p>Standalone (the compose demo's writer):
 * <pre>
 * java -cp ... io.sharestream.demo.EventWriter --table /data/events [--every-seconds 5] [--seconds 0]
 * </pre>
 * creates the table unless it exists and commits every few seconds, forever when {@code --seconds} is 0.
 */
public final class EventWriter {
  /** The table's columns; {@code event_date} is its partition column. */
  public static final DeltaType.StructType EVENTS = DeltaType.struct(
      DeltaType.field("event_id", DeltaType.LONG, false), DeltaType.field("event_time", DeltaType.TIMESTAMP),
      DeltaType.field("user_id", DeltaType.STRING), DeltaType.field("event_type", DeltaType.STRING),
      DeltaType.field("amount", DeltaType.decimal(10, 2)), DeltaType.field("event_date", DeltaType.DATE));
  private static final List<String> TYPES = List.of("view", "view", "view", "cart", "purchase");
  private static final int USERS = 40;

  private final DeltaTableWriter table;
  private final Random random = new Random(7);
  private final Map<Long, Map<String, Object>> live = new TreeMap<>();
  private final List<Expected> expected = new ArrayList<>();
  private final Map<String, Integer> commits = new LinkedHashMap<>();
  private long nextId;
  private int steps;

  private EventWriter(DeltaTableWriter table) {
    this.table = table;
    for (Map<String, Object> row : table.readAll()) {
      live.put((Long) row.get("event_id"), row);
      nextId = Math.max(nextId, (Long) row.get("event_id") + 1);
    }
  }

  /** The events table at {@code dir}, created (version 0, no rows) unless it exists. */
  public static EventWriter at(Path dir) {
    if (Files.isDirectory(dir.resolve("_delta_log"))) {
      return new EventWriter(DeltaTableWriter.open(dir));
    }
    return new EventWriter(DeltaTableWriter.create(dir, EVENTS).partitionedBy("event_date").changeDataFeed(true)
        .deletionVectors(true).name("events").description("web shop events (sharestream demo)").commit());
  }

  public Path dir() {
    return table.dir();
  }

  /** The table's latest version. */
  public synchronized long version() {
    return table.version();
  }

  /**
   * One commit, in a cycle of eight: six appends, an UPDATE (fourth) and a DELETE (eighth); what it committed, in a
   * few words.
   */
  public synchronized String step() {
    int turn = steps++ % 8;
    if (turn == 3 && !live.isEmpty()) {
      return refund();
    }
    if (turn == 7 && !live.isEmpty()) {
      return erase();
    }
    return append();
  }

  private String append() {
    int n = 20 + random.nextInt(30);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Map<String, Object> r = new LinkedHashMap<>();
      String type = TYPES.get(random.nextInt(TYPES.size()));
      r.put("event_id", nextId++);
      r.put("event_time", now.minusMillis(random.nextInt(5_000)));
      r.put("user_id", "user-" + random.nextInt(USERS));
      r.put("event_type", type);
      r.put("amount", type.equals("purchase") ? BigDecimal.valueOf(100 + random.nextInt(20_000), 2) : null);
      r.put("event_date", LocalDate.ofInstant(now, ZoneOffset.UTC));
      rows.add(r);
    }
    long version = table.append(rows);
    rows.forEach(r -> live.put((Long) r.get("event_id"), r));
    rows.forEach(r -> expected.add(new Expected((Long) r.get("event_id"), Change.INSERT, version)));
    return count("append", version, n + " events");
  }

  /** UPDATE: the purchases of the user with most of them refunded (amount 0). */
  private String refund() {
    Map<String, Integer> purchases = new TreeMap<>();
    live.values().stream().filter(EventWriter::refundable).forEach(r -> purchases.merge((String) r.get("user_id"), 1,
        Integer::sum));
    String user = purchases.entrySet().stream().max(Map.Entry.comparingByValue()).map(Map.Entry::getKey).orElse("");
    List<Long> ids = matching(r -> user.equals(r.get("user_id")) && refundable(r));
    if (ids.isEmpty()) {
      return append();
    }
    long version = table.updateWhere(r -> ids.contains((Long) r.get("event_id")), r -> {
      r.put("amount", new BigDecimal("0.00"));
      return r;
    });
    for (long id : ids) {
      live.get(id).put("amount", new BigDecimal("0.00"));
      expected.add(new Expected(id, Change.UPDATE_PREIMAGE, version));
      expected.add(new Expected(id, Change.UPDATE_POSTIMAGE, version));
    }
    return count("update", version, "refunded " + ids.size() + " purchases of " + user);
  }

  private static boolean refundable(Map<String, Object> r) {
    return "purchase".equals(r.get("event_type")) && ((BigDecimal) r.get("amount")).signum() > 0;
  }

  /** DELETE: every event of one user. */
  private String erase() {
    String user = "user-" + random.nextInt(USERS);
    List<Long> ids = matching(r -> user.equals(r.get("user_id")));
    if (ids.isEmpty()) {
      return append();
    }
    long version = table.deleteWhere(r -> user.equals(r.get("user_id")));
    for (long id : ids) {
      live.remove(id);
      expected.add(new Expected(id, Change.DELETE, version));
    }
    return count("delete", version, "erased " + ids.size() + " events of " + user);
  }

  private List<Long> matching(java.util.function.Predicate<Map<String, Object>> p) {
    List<Long> ids = new ArrayList<>();
    live.forEach((id, r) -> {
      if (p.test(r)) {
        ids.add(id);
      }
    });
    return ids;
  }

  private String count(String kind, long version, String what) {
    commits.merge(kind, 1, Integer::sum);
    return "v" + version + " " + kind + ": " + what;
  }

  /** The changes committed so far by this writer, in commit order. */
  public synchronized List<Expected> expected() {
    return List.copyOf(expected);
  }

  /** Commits by kind (append, update, delete) so far. */
  public synchronized Map<String, Integer> commits() {
    return new LinkedHashMap<>(commits);
  }

  /** A row change as the change data feed names it. */
  public enum Change {
    INSERT("insert"), UPDATE_PREIMAGE("update_preimage"), UPDATE_POSTIMAGE("update_postimage"), DELETE("delete");

    public final String label;

    Change(String label) {
      this.label = label;
    }

    /**
     * Whether a stream in default mode delivers this change (SPEC §4: a commit's new row images). Inserts come from
     * appends only, so skipChangeCommits delivers exactly the inserts.
     */
    public boolean isNewImage() {
      return this == INSERT || this == UPDATE_POSTIMAGE;
    }
  }

  /** One committed row change: the event, how it changed, in which version. */
  public static final class Expected {
    public final long eventId;
    public final Change change;
    public final long version;

    Expected(long eventId, Change change, long version) {
      this.eventId = eventId;
      this.change = change;
      this.version = version;
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = null;
    long everySeconds = 5;
    long seconds = 0;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--table": dir = Path.of(args[i + 1]); break;
        case "--every-seconds": everySeconds = Long.parseLong(args[i + 1]); break;
        case "--seconds": seconds = Long.parseLong(args[i + 1]); break;
        default: throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (dir == null || args.length % 2 != 0) {
      System.err.println("usage: EventWriter --table <dir> [--every-seconds 5] [--seconds 0 (forever)]");
      System.exit(2);
    }
    EventWriter writer = at(dir);
    System.out.println("events table at " + writer.dir() + ", version " + writer.version());
    long end = seconds > 0 ? System.nanoTime() + seconds * 1_000_000_000L : Long.MAX_VALUE;
    while (System.nanoTime() < end) {
      System.out.println(writer.step());
      Thread.sleep(everySeconds * 1000);
    }
  }
}
