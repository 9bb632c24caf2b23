package io.sharestream.common.errors;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The secret values this JVM holds (profiles' bearer tokens and client secrets, OAuth access tokens): {@link
 * Errors#redact} removes them from any text whatever surrounds them, so a server that repeats a token in its error
 * message, without the {@code Bearer} word before it, does not put it in a message or a log. The most recently
 * registered {@value #KEEP} are kept (an access token is replaced every refresh); values shorter than {@value
 * #MIN_LENGTH} characters are not secrets worth the name and are left alone, so ordinary words are never hidden.
 */
public final class Secrets {
  static final int KEEP = 256;
  static final int MIN_LENGTH = 8;
  private static final Map<String, Boolean> KNOWN = Collections.synchronizedMap(new LinkedHashMap<String, Boolean>(
      16, 0.75f, true) {
    private static final long serialVersionUID = 1L;

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
      return size() > KEEP;
    }
  });

  private Secrets() {}

  /** Remembers {@code secret} (null and short values are ignored). */
  public static void register(String secret) {
    if (secret != null && secret.length() >= MIN_LENGTH) {
      KNOWN.put(secret, Boolean.TRUE);
    }
  }

  /** {@code text} with every known secret replaced by {@code <redacted>}. */
  static String remove(String text) {
    List<String> known;
    synchronized (KNOWN) {
      if (KNOWN.isEmpty()) {
        return text;
      }
      known = new ArrayList<>(KNOWN.keySet());
    }
    String out = text;
    for (String s : known) {
      if (out.contains(s)) {
        out = out.replace(s, "<redacted>");
      }
    }
    return out;
  }
}
