package io.kubesched.core.extender;

import io.kubernetes.client.util.SSLUtils;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.config.ExtenderTlsConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.Socket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x509.AlgorithmIdentifier;
import org.bouncycastle.asn1.x9.X9ObjectIdentifiers;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * The TLS settings of an HTTP extender's client, as kube's {@code makeTransport} derives them from
 * {@code enableHTTPS} and {@code tlsConfig}:
 *
 * <ul>
 *   <li>{@code enableHTTPS} without a CA ({@code caFile}/{@code caData}) means the server
 *       certificate is <em>not</em> verified; so does {@code tlsConfig.insecure} (which may not be
 *       combined with a CA);
 *   <li>a CA replaces the system trust store; {@code serverName} is sent as SNI and the certificate
 *       is checked against it instead of the URL's host;
 *   <li>{@code certFile}/{@code keyFile} (or the {@code *Data} fields, which win) give a client
 *       certificate; the key is read by client-java's {@link SSLUtils#loadKey(byte[])}: PEM PKCS#8
 *       ({@code PRIVATE KEY}, RSA or EC), PKCS#1 ({@code RSA PRIVATE KEY}) or SEC 1 ({@code EC
 *       PRIVATE KEY}).
 * </ul>
 *
 * Without any of these, the JDK's defaults apply. The scheme of {@code urlPrefix} decides whether
 * TLS is used at all.
 */
public final class ExtenderTls {
  private ExtenderTls() {}

  /**
   * Applies the TLS settings of {@code config} to {@code builder}.
   *
   * @throws IllegalArgumentException when a file cannot be read or a certificate or key is invalid
   */
  static void configure(HttpClient.Builder builder, ExtenderConfig config) {
    ExtenderTlsConfig tls = config.tlsConfig();
    boolean insecure = tls != null && tls.insecure();
    String serverName = tls == null ? null : emptyToNull(tls.serverName());
    byte[] ca = tls == null ? null : pem(tls.caData(), tls.caFile(), "caFile");
    byte[] cert = tls == null ? null : pem(tls.certData(), tls.certFile(), "certFile");
    byte[] key = tls == null ? null : pem(tls.keyData(), tls.keyFile(), "keyFile");
    if (config.enableHttps() && ca == null) {
      insecure = true;
    }
    if (!insecure && ca == null && cert == null && key == null && serverName == null) {
      return;
    }
    if (insecure && ca != null) {
      throw new IllegalArgumentException(
          "specifying a root certificates file with the insecure flag is not allowed");
    }
    if ((cert == null) != (key == null)) {
      throw new IllegalArgumentException(
          "tlsConfig: client certificate and key must be given together");
    }
    try {
      KeyManager[] keyManagers = cert == null ? null : keyManagers(cert, key);
      TrustManager[] trustManagers;
      if (insecure) {
        trustManagers = new TrustManager[] {new TrustAll()};
      } else {
        X509TrustManager base = trustManager(ca);
        trustManagers =
            serverName == null && ca == null
                ? null
                : new TrustManager[] {new ServerNameChecking(base, serverName)};
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(keyManagers, trustManagers, null);
      builder.sslContext(ctx);
      if (serverName != null) {
        SSLParameters params = ctx.getDefaultSSLParameters();
        params.setServerNames(List.of(new SNIHostName(serverName)));
        builder.sslParameters(params);
      }
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "extender " + config.urlPrefix() + ": invalid TLS configuration: " + e.getMessage(), e);
    }
  }

  /** Returns the PEM bytes from base64 {@code data} (preferred) or {@code file}, or null. */
  private static byte[] pem(String data, String file, String field) {
    if (data != null && !data.isEmpty()) {
      String trimmed = data.trim();
      if (trimmed.startsWith("-----BEGIN")) {
        return trimmed.getBytes(StandardCharsets.US_ASCII);
      }
      try {
        return Base64.getMimeDecoder().decode(trimmed);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "tlsConfig." + field.replace("File", "Data") + ": invalid base64: " + e.getMessage());
      }
    }
    if (file != null && !file.isEmpty()) {
      try {
        return Files.readAllBytes(Path.of(file));
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "tlsConfig." + field + ": cannot read \"" + file + "\": " + e.getMessage(), e);
      }
    }
    return null;
  }

  /**
   * Decodes the X.509 certificates of PEM data.
   *
   * @throws CertificateException when the data holds none or a malformed one
   */
  public static List<X509Certificate> certificates(byte[] pem) throws CertificateException {
    Collection<? extends Certificate> certs =
        CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    List<X509Certificate> out = new ArrayList<>();
    for (Certificate c : certs) {
      out.add((X509Certificate) c);
    }
    if (out.isEmpty()) {
      throw new CertificateException("no certificate found in PEM data");
    }
    return out;
  }

  private static X509TrustManager trustManager(byte[] ca)
      throws GeneralSecurityException, IOException {
    TrustManagerFactory tmf =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    if (ca == null) {
      tmf.init((KeyStore) null);
    } else {
      KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
      ks.load(null, null);
      int i = 0;
      for (X509Certificate c : certificates(ca)) {
        ks.setCertificateEntry("ca-" + i++, c);
      }
      tmf.init(ks);
    }
    for (TrustManager tm : tmf.getTrustManagers()) {
      if (tm instanceof X509TrustManager x) {
        return x;
      }
    }
    throw new GeneralSecurityException("no X.509 trust manager available");
  }

  private static KeyManager[] keyManagers(byte[] certPem, byte[] keyPem)
      throws GeneralSecurityException, IOException {
    return keyManagers(certificates(certPem), privateKey(keyPem));
  }

  /**
   * Reads a PEM private key as Go's {@code tls.X509KeyPair} does: PKCS#8 {@code PRIVATE KEY} (RSA
   * or EC), PKCS#1 {@code RSA PRIVATE KEY} or SEC 1 {@code EC PRIVATE KEY} (with or without its
   * public key), with client-java's loader plus what it lacks.
   *
   * @throws GeneralSecurityException when the data is none of these
   */
  public static PrivateKey privateKey(byte[] pem) throws GeneralSecurityException, IOException {
    try {
      return SSLUtils.loadKey(pem);
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      PrivateKey key = sec1WithoutPublicKey(pem);
      if (key != null) {
        return key;
      }
      throw new GeneralSecurityException(
          "cannot decode the private key (PEM PKCS#8 \"PRIVATE KEY\", \"RSA PRIVATE KEY\" or"
              + " \"EC PRIVATE KEY\" expected): "
              + e.getMessage(),
          e);
    }
  }

  private static KeyManager[] keyManagers(List<X509Certificate> chain, PrivateKey key)
      throws GeneralSecurityException, IOException {
    KeyStore ks = KeyStore.getInstance("PKCS12");
    ks.load(null, null);
    char[] password = new char[0];
    ks.setKeyEntry("client", key, password, chain.toArray(new Certificate[0]));
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, password);
    return kmf.getKeyManagers();
  }

  /**
   * Decodes a SEC 1 {@code EC PRIVATE KEY} that omits the optional public key (as Go's {@code
   * x509.ParseECPrivateKey} accepts, and client-java's loader does not); null for any other PEM.
   */
  private static PrivateKey sec1WithoutPublicKey(byte[] pem)
      throws IOException, GeneralSecurityException {
    PemObject block;
    try (PemReader reader =
        new PemReader(
            new InputStreamReader(new ByteArrayInputStream(pem), StandardCharsets.US_ASCII))) {
      block = reader.readPemObject();
    }
    if (block == null || !block.getType().equals("EC PRIVATE KEY")) {
      return null;
    }
    ECPrivateKey sec1 = ECPrivateKey.getInstance(block.getContent());
    if (sec1.getParametersObject() == null) {
      return null;
    }
    PrivateKeyInfo info =
        new PrivateKeyInfo(
            new AlgorithmIdentifier(X9ObjectIdentifiers.id_ecPublicKey, sec1.getParametersObject()),
            sec1);
    return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(info.getEncoded()));
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }

  /** Accepts every certificate and skips host name verification ({@code insecure}). */
  private static final class TrustAll extends X509ExtendedTrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }

  /**
   * Verifies the chain with {@code base}, then the leaf certificate's DNS or IP subject alternative
   * names against {@code serverName}, or else against the peer host.
   */
  private static final class ServerNameChecking extends X509ExtendedTrustManager {
    private final X509TrustManager base;
    private final String serverName;

    ServerNameChecking(X509TrustManager base, String serverName) {
      this.base = base;
      this.serverName = serverName;
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      base.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType)
        throws CertificateException {
      base.checkServerTrusted(chain, authType);
      if (serverName != null) {
        verifyHost(chain[0], serverName);
      }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      base.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
        throws CertificateException {
      String host =
          socket == null || socket.getInetAddress() == null
              ? null
              : socket.getInetAddress().getHostName();
      check(chain, authType, host);
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      base.checkClientTrusted(chain, authType);
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
        throws CertificateException {
      check(chain, authType, engine == null ? null : engine.getPeerHost());
    }

    private void check(X509Certificate[] chain, String authType, String peerHost)
        throws CertificateException {
      base.checkServerTrusted(chain, authType);
      String host = serverName != null ? serverName : peerHost;
      if (host != null) {
        verifyHost(chain[0], host);
      }
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return base.getAcceptedIssuers();
    }
  }

  /** Checks {@code host} against the DNS (type 2) and IP (type 7) subject alternative names. */
  static void verifyHost(X509Certificate cert, String host) throws CertificateException {
    String h = host.toLowerCase(Locale.ROOT);
    Collection<List<?>> sans;
    try {
      sans = cert.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      throw new CertificateException("x509: cannot parse subject alternative names", e);
    }
    List<String> names = new ArrayList<>();
    if (sans != null) {
      for (List<?> san : sans) {
        int type = (Integer) san.get(0);
        String value = String.valueOf(san.get(1)).toLowerCase(Locale.ROOT);
        if ((type == 2 || type == 7) && matches(value, h)) {
          return;
        }
        names.add(value);
      }
    }
    throw new CertificateException(
        "x509: certificate is valid for " + String.join(", ", names) + ", not " + host);
  }

  private static boolean matches(String pattern, String host) {
    if (pattern.equals(host)) {
      return true;
    }
    if (pattern.startsWith("*.")) {
      int dot = host.indexOf('.');
      return dot > 0 && host.substring(dot).equals(pattern.substring(1));
    }
    return false;
  }
}
