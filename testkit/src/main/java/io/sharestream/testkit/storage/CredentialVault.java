package io.sharestream.testkit.storage;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary credentials a server has vended, by access key id. Each issue is a fresh key, secret and session
 * token; expired ones are kept, so a request signed with one is told {@code ExpiredToken} rather than that the key
 * does not exist.
 */
public final class CredentialVault {
  private static final String KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  private static final String SECRET_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

  private final SecureRandom random = new SecureRandom();
  private final Map<String, SessionCredentials> issued = new ConcurrentHashMap<>();

  /**
   * Issues credentials reading under {@code prefix} (no trailing slash) of {@code bucket} for {@code ttl} from now;
   * {@code location} is what they are reported as issued for.
   */
  public SessionCredentials issue(String bucket, String prefix, String location, Duration ttl) {
    String id;
    SessionCredentials c;
    do {
      id = "ASIA" + randomText(KEY_ALPHABET, 16);
      c = new SessionCredentials(id, randomText(SECRET_ALPHABET, 40), "IQoJb3JpZ2luX2VjE" + randomText(SECRET_ALPHABET,
          300), bucket, prefix, location, System.currentTimeMillis() + ttl.toMillis());
    } while (issued.putIfAbsent(id, c) != null);
    return c;
  }

  /** The credentials with {@code accessKeyId}, or null when none was issued. */
  public SessionCredentials find(String accessKeyId) {
    return accessKeyId == null ? null : issued.get(accessKeyId);
  }

  /** Every credential issued so far, expired ones too. */
  public List<SessionCredentials> all() {
    return new ArrayList<>(issued.values());
  }

  private String randomText(String alphabet, int length) {
    char[] out = new char[length];
    for (int i = 0; i < length; i++) {
      out[i] = alphabet.charAt(random.nextInt(alphabet.length()));
    }
    return new String(out);
  }
}
