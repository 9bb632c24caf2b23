package io.sharestream.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.commons.io.IOUtils;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The stream's first offset, written under its checkpoint ({@code <checkpoint>/sources/<n>/initialOffset}) the first
 * time Spark asks for it, and read back ever after. Spark runs an uncommitted first batch again from
 * {@code initialOffset()} after a restart: computed anew from the table's latest version it would no longer match
 * the batch's stored end (or, with {@code startingVersion=latest}, would skip the versions committed meanwhile), as
 * Spark's own Kafka source found before keeping its initial offsets this way.
 */
final class InitialOffsetLog {
  private static final String FILE = "initialOffset";

  private final Path file;
  private final Configuration hadoop;

  InitialOffsetLog(String checkpointLocation, Configuration hadoop) {
    this.file = new Path(checkpointLocation, FILE);
    this.hadoop = hadoop;
  }

  /** The stored offset; else {@code first} computed and stored (written whole or not at all). */
  SharingOffset getOrCreate(Supplier<SharingOffset> first) {
    try {
      FileSystem fs = file.getFileSystem(hadoop);
      if (fs.exists(file)) {
        return read(fs);
      }
      SharingOffset offset = first.get();
      fs.mkdirs(file.getParent());
      Path tmp = new Path(file.getParent(), "." + FILE + "-" + UUID.randomUUID() + ".tmp");
      try (OutputStream out = fs.create(tmp, false)) {
        out.write(offset.json().getBytes(StandardCharsets.UTF_8));
      }
      if (!fs.rename(tmp, file)) {
        fs.delete(tmp, false);
        if (!fs.exists(file)) {
          throw new IOException("cannot rename " + tmp + " to " + file);
        }
        return read(fs); // another attempt stored it first
      }
      return offset;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot keep the stream's initial offset at " + file + ": " + e.getMessage(), e);
    }
  }

  private SharingOffset read(FileSystem fs) throws IOException {
    try (InputStream in = fs.open(file)) {
      return SharingOffset.fromJson(new String(IOUtils.toByteArray(in), StandardCharsets.UTF_8));
    }
  }
}
