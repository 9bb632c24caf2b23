package io.sharestream.common.planner;

import io.sharestream.common.errors.CancelledException;
import io.sharestream.common.model.FileAction;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * File lines kept on local disk instead of in the heap: appended as a listing streams in, read back by offset. The
 * file is a temporary file readable by its owner only (it holds pre-signed URLs), deleted on close; on Unix-like
 * systems it is unlinked as soon as it is opened, so it also disappears when the process dies, however it dies.
 */
final class FileSpill implements Closeable {
  private static final int WRITE_BUFFER = 1 << 16;
  private static final int READ_GUESS = 2048;

  private final FileChannel channel;
  private final ByteArrayOutputStream record = new ByteArrayOutputStream(READ_GUESS);
  private final DataOutputStream recordOut = new DataOutputStream(record);
  private final ByteBuffer pending = ByteBuffer.allocate(WRITE_BUFFER);
  private long length;

  FileSpill() {
    try {
      Path path = Files.createTempFile("sharestream-files-", ".spill");
      channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
          StandardOpenOption.DELETE_ON_CLOSE);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill file for a large version's file list in "
          + System.getProperty("java.io.tmpdir") + " (set java.io.tmpdir to a writable local directory)", e);
    }
  }

  /** Appends {@code f}; returns the offset to {@link #read} it at. */
  long append(FileAction f) {
    try {
      record.reset();
      f.writeTo(recordOut);
      long at = length;
      if (pending.remaining() < 4 + record.size()) {
        flush();
      }
      if (pending.remaining() < 4 + record.size()) { // a record larger than the buffer goes straight to disk
        ByteBuffer big = ByteBuffer.allocate(4 + record.size());
        big.putInt(record.size()).put(record.toByteArray()).flip();
        writeFully(big);
      } else {
        pending.putInt(record.size()).put(record.toByteArray(), 0, record.size());
      }
      length += 4 + record.size();
      return at;
    } catch (IOException e) {
      throw failed(e);
    }
  }

  /** The line appended at {@code offset}. */
  FileAction read(long offset) {
    if (!channel.isOpen()) {
      throw new IllegalStateException("the spilled file list of a large version was read after it was dropped");
    }
    try {
      flush();
      ByteBuffer b = ByteBuffer.allocate(READ_GUESS);
      readFully(b, offset, Math.min(READ_GUESS, length - offset));
      int size = b.getInt(0);
      if (size + 4 > b.capacity()) {
        b = ByteBuffer.allocate(size + 4);
        readFully(b, offset, size + 4);
      }
      return FileAction.readFrom(new DataInputStream(new ByteArrayInputStream(b.array(), 4, size)));
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private synchronized void flush() throws IOException {
    if (pending.position() > 0) {
      pending.flip();
      writeFully(pending);
      pending.clear();
    }
  }

  private void writeFully(ByteBuffer b) throws IOException {
    while (b.hasRemaining()) {
      channel.write(b);
    }
  }

  private void readFully(ByteBuffer b, long offset, long n) throws IOException {
    b.clear().limit((int) n);
    while (b.hasRemaining()) {
      if (channel.read(b, offset + b.position()) < 0) {
        throw new IOException("the spill file ends early");
      }
    }
  }

  private static RuntimeException failed(IOException e) {
    if (e instanceof ClosedByInterruptException) { // an interrupt closes a channel in use: an engine stopping
      return new CancelledException("Using the local spill file of a large version's file list was interrupted.");
    }
    return new UncheckedIOException("Cannot use the local spill file of a large version's file list (disk full?)", e);
  }

  @Override
  public void close() {
    try {
      channel.close();
    } catch (IOException e) {
      // the file is already unlinked: nothing is left behind
    }
  }
}
