package io.sharestream.common.planner;

import io.sharestream.common.client.DeltaSharingClient;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.VersionNotAvailableException;
import io.sharestream.common.profile.TableRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves instants to versions: the first version committed at or after a start instant, the last one at or
 * before an end instant, exact whatever the server's rounding, and the commit time of a version.
 */
final class StartingVersions {
  private static final Logger LOG = LoggerFactory.getLogger(StartingVersions.class);

  private final DeltaSharingClient client;
  private final TableRef table;
  private final FileLister lister;
  private final LongSupplier latest;
  private final Map<Long, Long> commitTimestamps = new LinkedHashMap<Long, Long>() {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
      return size() > 64;
    }
  };

  /** {@code latest} asks the server for the table's latest version. */
  StartingVersions(DeltaSharingClient client, TableRef table, FileLister lister, LongSupplier latest) {
    this.client = client;
    this.table = table;
    this.lister = lister;
    this.latest = latest;
  }

  /**
   * The first version committed at or after {@code t}. The version endpoint is asked first; its answer is then
   * checked against the commit timestamps on startingVersion lines, because the reference server answers one
   * version too late when {@code t} is exactly a commit's time (and fails when that commit is the latest), and
   * answers 0 before the first commit a cleaned-up log still holds.
   */
  long firstVersionAtOrAfter(Instant t) {
    long last = latest.getAsLong();
    long answer;
    try {
      answer = client.tableVersionAt(table, t);
    } catch (InvalidRequestException | VersionNotAvailableException afterOrAtLatest) {
      Long ts = commitTimestamp(last);
      if (ts != null && ts >= t.toEpochMilli()) {
        return last;
      }
      // no commit at or after the instant yet: like a start version beyond the latest, wait for the next one
      LOG.info("No version of {} was committed at or after {} yet; the stream starts with the next commit", table, t);
      return last + 1;
    }
    if (answer > 0) {
      Long before = commitTimestamp(answer - 1);
      if (before != null && before >= t.toEpochMilli()) {
        LOG.debug("The server resolved {} to version {} of {}, but {} was committed at {}: starting there", t, answer,
            table, answer - 1, Instant.ofEpochMilli(before));
        return answer - 1;
      }
    }
    long earliest = earliestServedVersion(answer, last);
    if (earliest > answer) {
      LOG.info("The stream of {} starts at {}, the earliest version still served", table, earliest);
    }
    return Math.max(answer, earliest);
  }

  /** The last version committed at or before {@code t} (an end instant); -1 when none is. */
  long lastVersionAtOrBefore(Instant t) {
    long first = firstVersionAtOrAfter(t);
    if (first <= latest.getAsLong()) {
      Long ts = commitTimestamp(first);
      if (ts != null && ts == t.toEpochMilli()) {
        return first;
      }
    }
    return first - 1;
  }

  /**
   * The commit timestamp of {@code version} as reported on its startingVersion lines, else (a version without data
   * change lines: OPTIMIZE, metadata-only) on the lines of a paged snapshot at it; null when neither says, the version
   * is no longer served, or the server answers no history in the delta format.
   */
  synchronized Long commitTimestamp(long version) {
    if (commitTimestamps.containsKey(version)) {
      return commitTimestamps.get(version); // a commit's time never changes
    }
    Long ts;
    try {
      ts = lister.firstTimestamp(version);
      ts = ts != null ? ts : lister.snapshotCommitTimestamp(version);
    } catch (InvalidRequestException | VersionNotAvailableException | DeltaFormatRequiredException notServed) {
      ts = null;
    }
    commitTimestamps.put(version, ts);
    return ts;
  }

  /**
   * The earliest version in [{@code from}, {@code last}] whose changes the server still serves (a cleaned-up log
   * starts late); {@code last} when none before it is.
   */
  long earliestServedVersion(long from, long last) {
    long lo = from;
    long hi = last;
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (served(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    if (lo > from) {
      LOG.info("Versions of {} before {} are no longer served (its log was cleaned up)", table, lo);
    }
    return lo;
  }

  /**
   * Whether the server lists {@code version}'s changes, as a stream asks for them (a checkpoint may still let it
   * answer a snapshot at a version whose commit is gone); a snapshot at it where history is not served in the delta
   * format.
   */
  private boolean served(long version) {
    try {
      lister.firstTimestamp(version);
      return true;
    } catch (InvalidRequestException | VersionNotAvailableException e) {
      return false;
    } catch (DeltaFormatRequiredException historyRefused) {
      try {
        client.metadata(table, version, null);
        return true;
      } catch (InvalidRequestException | VersionNotAvailableException e) {
        return false;
      }
    }
  }
}
