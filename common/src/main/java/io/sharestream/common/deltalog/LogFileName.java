package io.sharestream.common.deltalog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a {@code _delta_log} file name says (Delta protocol, "Delta Log Entries"): a commit
 * ({@code 00000000000000000007.json}), a classic checkpoint ({@code …7.checkpoint.parquet}), a part of a multi-part
 * one ({@code …7.checkpoint.0000000001.0000000003.parquet}), a V2 checkpoint ({@code …7.checkpoint.<uuid>.json} or
 * {@code .parquet}), a log compaction ({@code …4.…7.compacted.json}), {@code _last_checkpoint}, or anything else.
 */
final class LogFileName {
  enum Kind { COMMIT, CHECKPOINT, CHECKPOINT_PART, CHECKPOINT_V2, COMPACTION, LAST_CHECKPOINT, OTHER }

  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  private static final Pattern CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");
  private static final Pattern PART = Pattern.compile("(\\d{20})\\.checkpoint\\.(\\d{10})\\.(\\d{10})\\.parquet");
  private static final Pattern V2 = Pattern.compile("(\\d{20})\\.checkpoint\\.([0-9a-fA-F-]{36})\\.(json|parquet)");
  private static final Pattern COMPACTION = Pattern.compile("(\\d{20})\\.(\\d{20})\\.compacted\\.json");

  final Kind kind;
  /** The version it is of (a compaction: its last version); -1 for others. */
  final long version;
  /** A compaction's first version; a part's number (1-based); else -1. */
  final long first;
  /** A multi-part checkpoint's number of parts; else -1. */
  final int parts;

  private LogFileName(Kind kind, long version, long first, int parts) {
    this.kind = kind;
    this.version = version;
    this.first = first;
    this.parts = parts;
  }

  static LogFileName parse(String name) {
    Matcher m;
    if ((m = COMMIT.matcher(name)).matches()) {
      return new LogFileName(Kind.COMMIT, Long.parseLong(m.group(1)), -1, -1);
    }
    if ((m = CHECKPOINT.matcher(name)).matches()) {
      return new LogFileName(Kind.CHECKPOINT, Long.parseLong(m.group(1)), -1, -1);
    }
    if ((m = PART.matcher(name)).matches()) {
      return new LogFileName(Kind.CHECKPOINT_PART, Long.parseLong(m.group(1)), Long.parseLong(m.group(2)),
          Integer.parseInt(m.group(3)));
    }
    if ((m = V2.matcher(name)).matches()) {
      return new LogFileName(Kind.CHECKPOINT_V2, Long.parseLong(m.group(1)), -1, -1);
    }
    if ((m = COMPACTION.matcher(name)).matches()) {
      return new LogFileName(Kind.COMPACTION, Long.parseLong(m.group(2)), Long.parseLong(m.group(1)), -1);
    }
    return new LogFileName(name.equals("_last_checkpoint") ? Kind.LAST_CHECKPOINT : Kind.OTHER, -1, -1, -1);
  }

  /** The name of version {@code v}'s commit file. */
  static String commit(long v) {
    return String.format("%020d.json", v);
  }

  /** A name that sorts before every file of version {@code v}. */
  static String versionPrefix(long v) {
    return String.format("%020d", v);
  }
}
