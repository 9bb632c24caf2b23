package io.sharestream.soak;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What arrived beside what had to, compared as multisets of events: rows lost (expected, never arrived), duplicated
 * (arrived more often than expected) and unexpected (never expected at all).
 */
final class Ledger {
  final String what;
  final int expected;
  final int arrived;
  final List<String> lost = new ArrayList<>();
  final List<String> duplicated = new ArrayList<>();
  final List<String> unexpected = new ArrayList<>();

  Ledger(String what, Collection<String> expected, Collection<String> arrived) {
    this.what = what;
    this.expected = expected.size();
    this.arrived = arrived.size();
    Map<String, Integer> counts = new TreeMap<>();
    for (String e : expected) {
      counts.merge(e, 1, Integer::sum);
    }
    Map<String, Integer> seen = new TreeMap<>();
    for (String a : arrived) {
      seen.merge(a, 1, Integer::sum);
    }
    counts.forEach((e, n) -> {
      int got = seen.getOrDefault(e, 0);
      for (int i = got; i < n; i++) {
        lost.add(e);
      }
    });
    seen.forEach((a, got) -> {
      int n = counts.getOrDefault(a, 0);
      for (int i = n; i < got; i++) {
        (n == 0 ? unexpected : duplicated).add(a);
      }
    });
  }

  boolean clean() {
    return lost.isEmpty() && duplicated.isEmpty() && unexpected.isEmpty();
  }

  /** Nothing lost and nothing unexpected; repeats allowed (at-least-once delivery). */
  boolean atLeastOnce() {
    return lost.isEmpty() && unexpected.isEmpty();
  }

  /** Whether everything expected has arrived (duplicates aside). */
  boolean complete() {
    return lost.isEmpty();
  }

  /** {@code where} tells, for a duplicated event, where each copy arrived. */
  Ledger traced(Map<String, List<String>> where) {
    for (int i = 0; i < duplicated.size(); i++) {
      duplicated.set(i, duplicated.get(i) + " " + where.getOrDefault(duplicated.get(i), List.of()));
    }
    return this;
  }

  @Override
  public String toString() {
    return what + ": " + expected + " rows expected, " + arrived + " arrived; lost " + lost.size() + ", duplicated "
        + duplicated.size() + ", unexpected " + unexpected.size() + sample("lost", lost)
        + sample("duplicated", duplicated) + sample("unexpected", unexpected);
  }

  private static String sample(String name, List<String> events) {
    return events.isEmpty() ? "" : "\n  " + name + ": " + (events.size() > 10 ? events.subList(0, 10) + "..." : events);
  }
}
