package io.sharestream.cli;

import io.sharestream.common.errors.AmbiguousCalendarException;
import io.sharestream.common.errors.ChangeDataNotRecordedException;
import io.sharestream.common.errors.DeltaFormatRequiredException;
import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.HistoryNotSharedException;
import io.sharestream.common.errors.IncompatibleSchemaChangeException;
import io.sharestream.common.errors.InvalidProfileException;
import io.sharestream.common.errors.InvalidRequestException;
import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.errors.ProtocolViolationException;
import io.sharestream.common.errors.ServerErrorException;
import io.sharestream.common.errors.TableNotFoundException;
import io.sharestream.common.errors.UnauthorizedException;
import io.sharestream.common.errors.UnsupportedTableFeatureException;
import io.sharestream.common.errors.VersionNotAvailableException;
import java.util.List;
import picocli.CommandLine;

/**
 * The one place failures end: each becomes one line {@code sharestream: <message>} on stderr ({@link Stderr}, in the
 * CLI's terms) and an exit code a script can rely on. The core's messages already say what to do and hold no
 * secrets; any other text is redacted (pre-signed URL queries, bearer tokens, known secrets) all the same.
 */
final class Failures implements CommandLine.IExecutionExceptionHandler {
  static final int FAILURE = 1;
  static final int BAD_CREDENTIALS = 3;
  static final int NOT_FOUND = 4;
  static final int NOT_READABLE = 5;
  static final int SERVER_FAILURE = 6;
  /** 128 + SIGPIPE, what a Unix tool's shell reports when the tool died writing to a closed pipe. */
  static final int OUTPUT_CLOSED = 141;

  static final String EXIT_CODES_HELP = "%nExit codes:%n"
      + "  0  success%n"
      + "  1  any other failure%n"
      + "  2  usage error (unknown command or option, bad option value)%n"
      + "  3  the profile cannot be read, or its credentials are refused%n"
      + "  4  share, schema or table not found%n"
      + "  5  the table cannot be read as asked: history not shared, version not%n"
      + "     available, unsupported feature, a request the server refuses%n"
      + "  6  the server or network kept failing (or silent) through every retry%n"
      + "  141  standard output was closed (the reader of a pipe ended): the command stops, silent";

  private static final List<Class<? extends RuntimeException>> NOT_READABLE_AS_ASKED = List.of(
      HistoryNotSharedException.class, VersionNotAvailableException.class, UnsupportedTableFeatureException.class,
      DeltaFormatRequiredException.class, ChangeDataNotRecordedException.class, InvalidSettingException.class,
      InvalidRequestException.class, AmbiguousCalendarException.class, IncompatibleSchemaChangeException.class);

  @Override
  public int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
    if (e instanceof OutputClosed) {
      return OUTPUT_CLOSED;
    }
    cl.getOut().flush();
    Stderr.note(message(e));
    return exitCode(e);
  }

  static int exitCode(Throwable e) {
    if (e instanceof InvalidProfileException || e instanceof UnauthorizedException) {
      return BAD_CREDENTIALS;
    }
    if (e instanceof TableNotFoundException) {
      return NOT_FOUND;
    }
    if (NOT_READABLE_AS_ASKED.stream().anyMatch(c -> c.isInstance(e))) {
      return NOT_READABLE;
    }
    if (e instanceof ServerErrorException || e instanceof ProtocolViolationException) {
      return SERVER_FAILURE;
    }
    return FAILURE;
  }

  /** The failure's message on one line, secrets removed; its kind when it has no message. */
  static String message(Throwable e) {
    return oneLine(e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
        : e.getMessage());
  }

  /** {@code text} on one line, secrets removed. */
  static String oneLine(String text) {
    return Errors.redact(text).replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }
}
