package io.sharestream.common.planner;

import io.sharestream.common.model.TableMetadata;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Version tracking for one shared table, shared by the Kafka and Spark engines: where a stream starts, and which
 * files come next, in which order, labelled how (SPEC §4, §5). Positions are {@link Position}s; the planner keeps
 * only caches, so any position it ever returned can be planned from again after a restart.
 */
public interface StreamPlanner extends AutoCloseable {
  /** The table's metadata when the stream started: its id, and the schema the stream reads with. */
  TableMetadata metadata();

  /** The position a stream without a stored one starts at (resolving startingVersion/startingTimestamp). */
  Position initialPosition();

  /**
   * The next units after {@code from}, within {@code limits}, and the position after them. The position may move
   * although no unit is returned (empty or skipped versions); nothing moves while {@code from} is beyond the
   * table's latest version (a start in the future waits).
   */
  Plan plan(Position from, AdmissionLimits limits);

  /** The units after {@code start} up to and including {@code end} (a range a previous plan returned). */
  List<WorkUnit> units(Position start, Position end);

  /** The table's latest version, asked of the server at most once per poll interval. */
  long latestVersion();

  /**
   * The URLs of a unit's files (data and deletion vectors), refreshed together (same request again, matched by id)
   * when storage refuses one.
   */
  UnitUrls urls(WorkUnit unit);

  @Override
  void close();

  /** A planned batch: units in stream order and the position after them. */
  final class Plan {
    private final List<WorkUnit> units;
    private final Position end;

    public Plan(List<WorkUnit> units, Position end) {
      this.units = Collections.unmodifiableList(new ArrayList<>(units));
      this.end = end;
    }

    public List<WorkUnit> units() {
      return units;
    }

    public Position end() {
      return end;
    }

    @Override
    public String toString() {
      return "Plan{" + units.size() + " units, end=" + end + "}";
    }
  }
}
