package io.sharestream.common.profile;

import io.sharestream.common.errors.Errors;
import io.sharestream.common.errors.InvalidProfileException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a client's profile comes from. A profile file is looked at again at most every {@link #CHECK_INTERVAL} and
 * whenever the server refused the credentials in use ({@link #reload()}); once it changed, its new credentials (and
 * endpoint) serve every later request, positions untouched, so a provider's rotated token needs no restart. A file
 * that cannot be read or parsed at that moment (being rewritten) leaves the profile in use as it is, with a warning.
 * A profile given inline (JSON, options, settings) stays as it is.
 */
public abstract class ProfileSource {
  /** How often, at most, a profile file is looked at for changes. */
  public static final Duration CHECK_INTERVAL = Duration.ofSeconds(10);

  /** How a profile file's text is fetched (Spark reads it through its file systems). */
  public interface TextReader {
    String read() throws IOException;
  }

  /** The profile to use now (a changed file is read first, at most every check interval). */
  public abstract DeltaSharingProfile current();

  /** Reads the profile file again now; true when its profile changed (and is the current one from now on). */
  public abstract boolean reload();

  /** How many times a changed profile replaced the one in use. */
  public abstract long reloads();

  /** Where the profile comes from, for messages: a file's location, or "inline profile". */
  public abstract String location();

  /** A profile that never changes. */
  public static ProfileSource fixed(DeltaSharingProfile profile) {
    return new ProfileSource() {
      @Override
      public DeltaSharingProfile current() {
        return profile;
      }

      @Override
      public boolean reload() {
        return false;
      }

      @Override
      public long reloads() {
        return 0;
      }

      @Override
      public String location() {
        return "inline profile";
      }
    };
  }

  /** The profile file {@code file}, read now (a bad one fails here) and again when it changes. */
  public static ProfileSource file(Path file) {
    return new Reloading(file.toString(), DeltaSharingProfile.fromFile(file),
        () -> new String(Files.readAllBytes(file), StandardCharsets.UTF_8), file.toAbsolutePath().getParent(),
        CHECK_INTERVAL, Clock.systemUTC());
  }

  /**
   * The profile file at {@code location}, read as {@code first} and fetched again by {@code reader} when checked;
   * a private key file it names by a relative path is looked for in {@code directory} (null: the working one).
   */
  public static ProfileSource reading(String location, DeltaSharingProfile first, TextReader reader,
      Path directory, Duration checkInterval, Clock clock) {
    return new Reloading(location, first, reader, directory, checkInterval, clock);
  }

  /** A profile file read again when it changes. */
  private static final class Reloading extends ProfileSource {
    private static final Logger LOG = LoggerFactory.getLogger(ProfileSource.class);

    private final String location;
    private final TextReader reader;
    private final Path directory;
    private final Duration interval;
    private final Clock clock;
    private final AtomicLong reloads = new AtomicLong();
    private volatile DeltaSharingProfile profile;
    private volatile long checkedAt;
    private String text;

    Reloading(String location, DeltaSharingProfile first, TextReader reader, Path directory, Duration interval,
        Clock clock) {
      this.location = location;
      this.profile = first;
      this.reader = reader;
      this.directory = directory;
      this.interval = interval;
      this.clock = clock;
      this.checkedAt = clock.millis();
    }

    @Override
    public DeltaSharingProfile current() {
      if (clock.millis() - checkedAt >= interval.toMillis()) {
        reload();
      }
      return profile;
    }

    @Override
    public synchronized boolean reload() {
      checkedAt = clock.millis();
      String now;
      try {
        now = reader.read();
      } catch (IOException | RuntimeException e) {
        LOG.warn("The profile file {} cannot be read again ({}): the profile read before stays in use", location,
            Errors.redact(String.valueOf(e.getMessage())));
        return false;
      }
      if (now.equals(text)) {
        return false;
      }
      DeltaSharingProfile read;
      try {
        read = DeltaSharingProfile.fromJson(now, location, directory);
      } catch (InvalidProfileException e) {
        LOG.warn("The profile file {} changed but cannot be used ({}): the profile read before stays in use",
            location, e.getMessage());
        return false;
      }
      text = now;
      if (read.equals(profile)) {
        return false;
      }
      profile = read;
      reloads.incrementAndGet();
      LOG.info("The profile file {} changed: its credentials serve every request from now on ({})", location, read);
      return true;
    }

    @Override
    public long reloads() {
      return reloads.get();
    }

    @Override
    public String location() {
      return location;
    }
  }
}
