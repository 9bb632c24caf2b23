package io.sharestream.cli;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The CLI's SLF4J binding: warnings, and the core's once-per-commit hints and retries (its stream planner's and
 * retrier's info lines), as {@link Stderr} notes; everything else stays quiet. A CLI user sees what the engines'
 * logs would tell an operator, in the CLI's terms.
 */
public final class StderrLogging implements SLF4JServiceProvider {
  /** Loggers whose info lines a CLI user wants: hints about what a commit gives, and each retry. */
  private static final String[] INFO_LOGGERS = {"io.sharestream.common.planner.",
      "io.sharestream.common.client.Retrier"};
  /** Loggers whose warnings are no news to a CLI user (Hadoop running without its native library). */
  private static final String[] QUIET_LOGGERS = {"org.apache.hadoop.util.NativeCodeLoader"};

  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();
  private final Map<String, Logger> loggers = new ConcurrentHashMap<>();
  private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, NoteLogger::new);

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
  }

  static Level threshold(String logger) {
    for (String quiet : QUIET_LOGGERS) {
      if (logger.startsWith(quiet)) {
        return Level.ERROR;
      }
    }
    for (String info : INFO_LOGGERS) {
      if (logger.startsWith(info)) {
        return Level.INFO;
      }
    }
    return Level.WARN;
  }

  /** A logger writing lines at or above its threshold as notes. */
  private static final class NoteLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;
    private final int threshold;

    NoteLogger(String name) {
      this.name = name;
      this.threshold = threshold(name).toInt();
    }

    @Override
    public boolean isTraceEnabled() {
      return threshold <= Level.TRACE.toInt();
    }

    @Override
    public boolean isDebugEnabled() {
      return threshold <= Level.DEBUG.toInt();
    }

    @Override
    public boolean isInfoEnabled() {
      return threshold <= Level.INFO.toInt();
    }

    @Override
    public boolean isWarnEnabled() {
      return threshold <= Level.WARN.toInt();
    }

    @Override
    public boolean isErrorEnabled() {
      return true;
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
        Throwable thrown) {
      String text = MessageFormatter.basicArrayFormat(pattern, args);
      if (thrown != null && level.toInt() >= Level.WARN.toInt()) {
        text += ": " + Failures.message(thrown);
      }
      Stderr.note(Failures.oneLine(text));
    }
  }
}
