package io.sharestream.common.deltalog;

import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import org.apache.parquet.io.InputFile;

/**
 * The files of one Delta table's {@code _delta_log} directory, wherever the table is stored: what {@link DeltaLog}
 * reads a table's versions and actions from. Implementations list and open objects; they never interpret them.
 */
public interface LogFiles {
  /**
   * The files directly in {@code _delta_log/} whose names sort at or after {@code fromName} (empty: all), in name
   * order, as object stores list them. Sub-directories ({@code _sidecars/}, {@code _staged_commits/}) are not listed.
   */
  Iterator<LogFile> list(String fromName) throws IOException;

  /** The whole content of {@code file} (a commit, {@code _last_checkpoint}, a JSON checkpoint), streamed. */
  InputStream open(LogFile file) throws IOException;

  /** {@code file} for Parquet's reader: a Parquet checkpoint, one of its parts, or a sidecar. */
  InputFile openParquet(LogFile file) throws IOException;
}
