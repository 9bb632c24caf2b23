package io.sharestream.testkit.delta;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} on the local disk, without Hadoop's checksum side files. */
final class LocalOutputFile implements OutputFile {
  private final Path path;

  LocalOutputFile(Path path) {
    this.path = path;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    return open(StandardOpenOption.CREATE_NEW);
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
  }

  private PositionOutputStream open(StandardOpenOption... options) throws IOException {
    Files.createDirectories(path.getParent());
    OutputStream out = new BufferedOutputStream(Files.newOutputStream(path, options), 64 * 1024);
    return new PositionOutputStream() {
      private long pos;

      @Override
      public long getPos() {
        return pos;
      }

      @Override
      public void write(int b) throws IOException {
        out.write(b);
        pos++;
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        pos += len;
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }
}
