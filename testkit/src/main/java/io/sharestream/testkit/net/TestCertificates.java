package io.sharestream.testkit.net;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A test certificate authority and a server certificate it signed for {@code 127.0.0.1} and {@code localhost}, valid
 * for a day: the kit's server serves TLS with it ({@code DeltaSharingServer.Builder#tls}), and a client trusts it only
 * when given the authority's certificate ({@link #writeCaPem}, {@link #writeTrustStore}). Each instance is a new
 * authority, so another instance's clients do not trust this one's server.
 */
public final class TestCertificates {
  private static final char[] KEY_PASSWORD = "kit-key-password".toCharArray();

  private final X509Certificate ca;
  private final X509Certificate server;
  private final KeyStore serverKeys;

  private TestCertificates(X509Certificate ca, X509Certificate server, KeyStore serverKeys) {
    this.ca = ca;
    this.server = server;
    this.serverKeys = serverKeys;
  }

  /** A new authority and its server certificate. */
  public static TestCertificates create() {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(2048);
      KeyPair caKeys = rsa.generateKeyPair();
      KeyPair serverKeys = rsa.generateKeyPair();
      long now = System.currentTimeMillis();
      Date from = new Date(now - 3_600_000L);
      Date to = new Date(now + 86_400_000L);
      X500Name caName = new X500Name("CN=Sharestream kit test CA " + now);
      X509v3CertificateBuilder caCert = new JcaX509v3CertificateBuilder(caName, BigInteger.valueOf(now), from, to,
          caName, caKeys.getPublic());
      caCert.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      caCert.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      X509Certificate ca = sign(caCert, caKeys);
      X509v3CertificateBuilder serverCert = new JcaX509v3CertificateBuilder(caName, BigInteger.valueOf(now + 1),
          from, to, new X500Name("CN=127.0.0.1"), serverKeys.getPublic());
      serverCert.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
          new GeneralName(GeneralName.iPAddress, "127.0.0.1"), new GeneralName(GeneralName.dNSName, "localhost")}));
      serverCert.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
      X509Certificate server = sign(serverCert, caKeys);
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(null, null);
      keys.setKeyEntry("server", serverKeys.getPrivate(), KEY_PASSWORD, new Certificate[] {server, ca});
      return new TestCertificates(ca, server, keys);
    } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
      throw new IllegalStateException("cannot make the test certificates", e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, KeyPair issuer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder("SHA256withRSA")
        .build(issuer.getPrivate())));
  }

  /** The server side's TLS context: the server certificate and its chain. */
  public SSLContext serverContext() {
    try {
      KeyManagerFactory f = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      f.init(serverKeys, KEY_PASSWORD);
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(f.getKeyManagers(), null, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes the authority's certificate as PEM to {@code file}. */
  public Path writeCaPem(Path file) {
    try {
      String pem = "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
          .encodeToString(ca.getEncoded()) + "\n-----END CERTIFICATE-----\n";
      return Files.write(file, pem.getBytes(StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Writes a trust store of {@code type} (PKCS12 or JKS) holding the authority's certificate to {@code file}. */
  public Path writeTrustStore(Path file, String type, String password) {
    try (OutputStream out = Files.newOutputStream(file)) {
      KeyStore ks = KeyStore.getInstance(type);
      ks.load(null, null);
      ks.setCertificateEntry("kit-ca", ca);
      ks.store(out, password.toCharArray());
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The server certificate (its subject, issuer and names). */
  public X509Certificate serverCertificate() {
    return server;
  }
}
