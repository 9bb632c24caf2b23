package io.sharestream.common.client;

import io.sharestream.common.errors.InvalidSettingException;
import io.sharestream.common.errors.Secrets;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.Locale;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * Which server certificates are trusted: the JVM's trust store ({@link #SYSTEM}), only those of a file (PEM
 * certificates, or a PKCS12 or JKS trust store, read once and kept, so a Spark executor trusts what its driver
 * read), or any ({@link #trustingAll()}, the reference client's {@code sslTrustAll}, for tests against self-signed
 * servers only). Host names are verified whatever the trust.
 */
public final class TrustSettings implements java.io.Serializable {
  private static final long serialVersionUID = 1L;
  public static final TrustSettings SYSTEM = new TrustSettings(null, null, null, null, false, null);

  private final String file;
  private final byte[] content;
  private final String password;
  private final String type;
  private final boolean all;
  private final String setting;

  private TrustSettings(String file, byte[] content, String password, String type, boolean all, String setting) {
    this.file = file;
    this.content = content;
    this.password = password;
    this.type = type;
    this.all = all;
    this.setting = setting;
    Secrets.register(password);
  }

  /**
   * Trusts the certificates of {@code file} only: PEM ({@code -----BEGIN CERTIFICATE-----}, one or more) or a trust
   * store of {@code type} (PKCS12 or JKS; null: PEM or PKCS12 by content, JKS by a {@code .jks} name) opened with
   * {@code password} (null: none). The file is read now; a bad one fails naming {@code setting}.
   */
  public static TrustSettings file(String file, String password, String type, String setting) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(Paths.get(file));
    } catch (IOException e) {
      throw new InvalidSettingException(setting + ": the trust file " + file + " cannot be read (" + e + ").");
    }
    TrustSettings t = new TrustSettings(file, bytes, password, type == null ? null
        : type.trim().toUpperCase(Locale.ROOT), false, setting);
    t.sslContext(); // fails now, naming the setting
    return t;
  }

  /** Trusts every certificate (host names still verified). */
  public static TrustSettings trustingAll() {
    return new TrustSettings(null, null, null, null, true, null);
  }

  public boolean isSystem() {
    return file == null && !all;
  }

  public boolean trustsAll() {
    return all;
  }

  /** The trust file; null unless one is set. */
  public String file() {
    return file;
  }

  /** The TLS context these settings give; null for the JVM's default. */
  SSLContext sslContext() {
    if (isSystem()) {
      return null;
    }
    try {
      TrustManager[] managers;
      if (all) {
        managers = new TrustManager[] {new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        }};
      } else {
        TrustManagerFactory f = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init(keyStore());
        managers = f.getTrustManagers();
      }
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(null, managers, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new InvalidSettingException(setting + ": the trusted certificates of " + file + " cannot be used: "
          + e.getMessage());
    }
  }

  private KeyStore keyStore() throws GeneralSecurityException {
    byte[] bytes = content;
    boolean pem = type == null ? new String(bytes, 0, Math.min(bytes.length, 4096),
        java.nio.charset.StandardCharsets.US_ASCII).contains("-----BEGIN") : type.equals("PEM");
    if (pem) {
      Collection<? extends Certificate> certs = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(bytes));
      if (certs.isEmpty()) {
        throw new InvalidSettingException(setting + ": " + file + " holds no PEM certificate.");
      }
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      try {
        ks.load(null, null);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      int i = 0;
      for (Certificate c : certs) {
        ks.setCertificateEntry("cert-" + i++, c);
      }
      return ks;
    }
    String storeType = type != null ? type : file.toLowerCase(Locale.ROOT).endsWith(".jks") ? "JKS" : "PKCS12";
    KeyStore ks = KeyStore.getInstance(storeType);
    try (InputStream in = new ByteArrayInputStream(bytes)) {
      ks.load(in, password == null ? null : password.toCharArray());
    } catch (IOException e) {
      throw new InvalidSettingException(setting + ": the trust store " + file + " cannot be opened as " + storeType
          + " (" + e.getMessage() + "); check its type and password.");
    }
    return ks;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof TrustSettings)) {
      return false;
    }
    TrustSettings t = (TrustSettings) o;
    return Objects.equals(file, t.file) && java.util.Arrays.equals(content, t.content)
        && Objects.equals(password, t.password) && Objects.equals(type, t.type) && all == t.all;
  }

  @Override
  public int hashCode() {
    return Objects.hash(file, type, all);
  }

  @Override
  public String toString() {
    return all ? "trust all" : file == null ? "the JVM's trust store" : "the certificates of " + file;
  }
}
