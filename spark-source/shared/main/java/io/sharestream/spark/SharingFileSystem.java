package io.sharestream.spark;

import io.sharestream.common.client.HttpInputFile;
import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A read-only Hadoop {@code FileSystem} for {@code deltasharing:/<key>} paths, so Spark's own Parquet readers read
 * shared files: statuses come from the registered size (no request), streams from the file's
 * {@link HttpInputFile} (the footer from one cached tail read, data by exact ranges, URLs refreshed on 403).
 */
public final class SharingFileSystem extends FileSystem {
  private static final URI ROOT = URI.create(FileRegistry.SCHEME + ":///");

  @Override
  public String getScheme() {
    return FileRegistry.SCHEME;
  }

  @Override
  public URI getUri() {
    return ROOT;
  }

  private static String key(Path p) {
    String path = p.toUri().getPath();
    return path.startsWith("/") ? path.substring(1) : path;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    HttpInputFile input = FileRegistry.input(key(f));
    return new FSDataInputStream(new Stream(input.newStream()));
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    HttpInputFile input = FileRegistry.input(key(f));
    return new FileStatus(input.getLength(), false, 1, 128L << 20, 0, f.makeQualified(ROOT, new Path("/")));
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    return new FileStatus[] {getFileStatus(f)};
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    throw readOnly();
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
    throw readOnly();
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    throw readOnly();
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw readOnly();
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    throw readOnly();
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    // one flat namespace
  }

  @Override
  public Path getWorkingDirectory() {
    return new Path(ROOT);
  }

  private static IOException readOnly() {
    return new IOException("deltasharing files are read-only");
  }

  /** Parquet's seekable stream as Hadoop's. */
  private static final class Stream extends FSInputStream {
    private final SeekableInputStream in;

    Stream(SeekableInputStream in) {
      this.in = in;
    }

    @Override
    public void seek(long pos) throws IOException {
      in.seek(pos);
    }

    @Override
    public long getPos() throws IOException {
      return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPos) {
      return false;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
