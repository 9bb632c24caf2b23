package io.sharestream.common.planner;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.helpers.MessageFormatter;

/** Lines logged once per version (a change commit, a rewrite), however often it is planned; the last 1,000 kept. */
final class VersionLog {
  private static final int KEEP = 1000;
  private final Logger log;
  private final Map<Long, String> lines = Collections.synchronizedMap(new LinkedHashMap<Long, String>(16, 0.75f,
      false) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, String> eldest) {
      return size() > KEEP;
    }
  });

  VersionLog(Logger log) {
    this.log = log;
  }

  /** Logs {@code message} (SLF4J's {@code {}} placeholders) at info, unless a line was logged for {@code version}. */
  void log(long version, String message, Object... args) {
    if (lines.containsKey(version)) {
      return; // nor are its arguments formatted again
    }
    String line = MessageFormatter.arrayFormat(message, args).getMessage();
    if (lines.putIfAbsent(version, line) == null) {
      log.info(line);
    }
  }

  /** The line logged for {@code version}, or null. */
  String line(long version) {
    return lines.get(version);
  }
}
