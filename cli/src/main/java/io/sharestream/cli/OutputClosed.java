package io.sharestream.cli;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import java.io.PrintWriter;

/**
 * Standard output was closed (the reader of a pipe ended, as {@code | head -2} does): the command stops at once,
 * reading no more, and exits with {@link Failures#OUTPUT_CLOSED} without a message, as Unix tools end on SIGPIPE.
 */
final class OutputClosed extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** poll(2)'s revents bits for a pipe whose reading end is closed (the same on Linux and macOS). */
  private static final short POLLERR = 0x8;
  private static final short POLLHUP = 0x10;

  private OutputClosed() {
    super("standard output closed", null, false, false);
  }

  /** Throws when a write to {@code out} failed (a {@link PrintWriter} keeps its errors to itself). */
  static void check(PrintWriter out) {
    if (out.checkError()) {
      throw new OutputClosed();
    }
  }

  /**
   * Throws when standard output's reader went away, found without writing (a command waiting for new versions writes
   * nothing for a long time): as coreutils' {@code tail -f}, a poll(2) of file descriptor 1 asking for no event
   * reports an error or hang-up once no process reads the pipe. Where the C library cannot be called, it never
   * throws and the next write finds the closed pipe.
   */
  static void checkReader() {
    C c = Libc.C;
    if (c == null) {
      return;
    }
    try (Memory fd = new Memory(8)) { // struct pollfd { int fd; short events; short revents; }
      fd.setInt(0, 1);
      fd.setShort(4, (short) 0);
      fd.setShort(6, (short) 0);
      if (c.poll(fd, 1, 0) > 0 && (fd.getShort(6) & (POLLERR | POLLHUP)) != 0) {
        throw new OutputClosed();
      }
    }
  }

  /** The C library's poll(2). */
  interface C extends Library {
    int poll(Memory fds, int nfds, int timeoutMillis);
  }

  /** The C library, loaded at first use; null where it cannot be (a platform without JNA's native part). */
  private static final class Libc {
    static final C C = load();

    private static C load() {
      try {
        return Native.load(com.sun.jna.Platform.C_LIBRARY_NAME, C.class);
      } catch (LinkageError | RuntimeException unavailable) {
        return null;
      }
    }
  }
}
