package io.sharestream.demo;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Row changes seen by one side of the demo, as a multiset of (event id, change label), so that what arrived can be
 * compared with what was committed: rows missing and rows delivered more than once, per label.
 */
final class Tally {
  private final Map<String, Integer> counts = new HashMap<>();
  private final Map<String, Integer> byLabel = new TreeMap<>();
  private long total;

  synchronized void add(long eventId, String label) {
    counts.merge(eventId + "," + label, 1, Integer::sum);
    byLabel.merge(label, 1, Integer::sum);
    total++;
  }

  synchronized long total() {
    return total;
  }

  /** Rows per change label, in label order. */
  synchronized Map<String, Integer> byLabel() {
    return new TreeMap<>(byLabel);
  }

  /** What {@code seen} lacks and what it holds twice or more, measured against this (the expected) tally. */
  synchronized Comparison compare(Tally seen) {
    Comparison c = new Comparison();
    Map<String, Integer> theirs;
    synchronized (seen) {
      theirs = new HashMap<>(seen.counts);
    }
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      int got = theirs.getOrDefault(e.getKey(), 0);
      c.missing += Math.max(0, e.getValue() - got);
      c.duplicated += Math.max(0, got - e.getValue());
      theirs.remove(e.getKey());
    }
    theirs.values().forEach(n -> c.unexpected += n);
    return c;
  }

  /** How one side's rows compare with the committed ones. */
  static final class Comparison {
    long missing;
    long duplicated;
    long unexpected;

    boolean exact() {
      return missing == 0 && duplicated == 0 && unexpected == 0;
    }

    @Override
    public String toString() {
      return missing + " missing, " + duplicated + " duplicated, " + unexpected + " not committed";
    }
  }
}
