package io.sharestream.common.deltalog;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.InputFile;

/** A table's {@code _delta_log} on the local disk, listed in name order as object stores list. */
public final class LocalLogFiles implements LogFiles {
  private final Path log;
  int listings;

  LocalLogFiles(Path table) {
    this.log = table.resolve("_delta_log");
  }

  /** The log of the table in directory {@code table}. */
  public static LocalLogFiles of(Path table) {
    return new LocalLogFiles(table);
  }

  @Override
  public Iterator<LogFile> list(String fromName) throws IOException {
    listings++;
    List<LogFile> out = new ArrayList<>();
    try (Stream<Path> s = Files.list(log)) {
      s.filter(Files::isRegularFile).sorted().forEach(p -> {
        String name = p.getFileName().toString();
        if (name.compareTo(fromName) >= 0) {
          try {
            out.add(new LogFile(name, Files.size(p), Files.getLastModifiedTime(p).toMillis()));
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }
      });
    }
    return out.iterator();
  }

  @Override
  public InputStream open(LogFile file) throws IOException {
    return Files.newInputStream(log.resolve(file.name()));
  }

  @Override
  public InputFile openParquet(LogFile file) throws IOException {
    return HadoopInputFile.fromPath(new org.apache.hadoop.fs.Path(log.resolve(file.name()).toUri()),
        new Configuration());
  }
}
