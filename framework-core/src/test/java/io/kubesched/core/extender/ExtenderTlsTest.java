package io.kubesched.core.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.config.ExtenderTlsConfig;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The TLS settings of {@link HttpExtender} against an HTTPS webhook whose self-signed certificate
 * (made with the JDK's keytool) names {@code extender.test} and {@code 127.0.0.1}.
 */
final class ExtenderTlsTest {
  private static final String PASSWORD = "changeit";

  @TempDir static Path dir;
  private static HttpsServer server;
  private static Path caFile;

  @BeforeAll
  static void startServer() throws Exception {
    Path keystore = dir.resolve("server.p12");
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-dname",
        "CN=extender",
        "-ext",
        "SAN=dns:extender.test,ip:127.0.0.1",
        "-validity",
        "2",
        "-keystore",
        keystore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    caFile = dir.resolve("ca.pem");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "server",
        "-keystore",
        keystore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        caFile.toString());
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(keystore)) {
      ks.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASSWORD.toCharArray());
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(ctx));
    server.createContext("/filter", ExtenderTlsTest::answerN1);
    server.start();
  }

  private static void answerN1(com.sun.net.httpserver.HttpExchange ex) throws java.io.IOException {
    ex.getRequestBody().readAllBytes();
    byte[] out = "{\"NodeNames\":[\"n1\"]}".getBytes(StandardCharsets.UTF_8);
    ex.sendResponseHeaders(200, out.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(out);
    }
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static void keytool(String... args) throws Exception {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    List<String> cmd = new java.util.ArrayList<>(List.of(keytool.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
  }

  private static String url() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  private static HttpExtender extender(boolean enableHttps, ExtenderTlsConfig tls) {
    return HttpExtender.create(
        new ExtenderConfig(
            url(),
            "filter",
            "",
            "",
            "",
            1,
            enableHttps,
            Duration.ofSeconds(10),
            true,
            List.of(),
            false,
            tls));
  }

  private static ExtenderTlsConfig tls(
      boolean insecure, String serverName, String caFile, String caData) {
    return new ExtenderTlsConfig(insecure, serverName, null, null, caFile, null, null, caData);
  }

  private static List<NodeInfo> call(HttpExtender e) {
    V1Pod pod = new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("default"));
    NodeInfo n1 = NodeInfo.of(new V1Node().metadata(new V1ObjectMeta().name("n1")));
    return e.filter(PodInfo.of(pod), List.of(n1)).feasible();
  }

  static Stream<Arguments> accepted() throws Exception {
    return Stream.of(
        argumentSet("enableHTTPS without a CA does not verify the certificate", true, null),
        argumentSet("insecure skips verification", false, tls(true, null, null, null)),
        argumentSet(
            "a CA file verifies the certificate against the URL's IP",
            false,
            tls(false, null, "CA_FILE", null)),
        argumentSet(
            "caData (base64 of the PEM) works like a CA file, with enableHTTPS",
            true,
            tls(false, null, null, "CA_DATA")),
        argumentSet(
            "serverName is checked instead of the URL's host",
            false,
            tls(false, "extender.test", "CA_FILE", null)));
  }

  private static ExtenderTlsConfig resolve(ExtenderTlsConfig t) throws Exception {
    if (t == null) {
      return null;
    }
    String data =
        "CA_DATA".equals(t.caData())
            ? Base64.getEncoder().encodeToString(Files.readAllBytes(caFile))
            : t.caData();
    String file = "CA_FILE".equals(t.caFile()) ? caFile.toString() : t.caFile();
    return tls(t.insecure(), t.serverName(), file, data);
  }

  @ParameterizedTest
  @MethodSource("accepted")
  void theExtenderIsReached(boolean enableHttps, ExtenderTlsConfig tls) throws Exception {
    assertThat(call(extender(enableHttps, resolve(tls))))
        .extracting(NodeInfo::name)
        .containsExactly("n1");
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        argumentSet(
            "without TLS settings the JDK trust store rejects a self-signed certificate",
            (Object) null),
        argumentSet(
            "a serverName the certificate does not name",
            tls(false, "other.test", "CA_FILE", null)));
  }

  @ParameterizedTest
  @MethodSource("refused")
  void theCertificateIsRejected(ExtenderTlsConfig tls) throws Exception {
    HttpExtender e = extender(false, resolve(tls));

    assertThatThrownBy(() -> call(e))
        .isInstanceOf(SchedulingException.class)
        .hasMessageStartingWith("Post \"" + url() + "/filter\": ");
  }

  static Stream<Arguments> clientKeys() {
    return Stream.of(
        argumentSet("an RSA key in PKCS#8 (PRIVATE KEY)", "RSA", "2048", "PKCS8"),
        argumentSet("an RSA key in PKCS#1 (RSA PRIVATE KEY)", "RSA", "2048", "TRADITIONAL"),
        argumentSet("an EC key in PKCS#8 (PRIVATE KEY)", "EC", "256", "PKCS8"),
        argumentSet("an EC key in SEC 1 (EC PRIVATE KEY)", "EC", "256", "TRADITIONAL"),
        argumentSet(
            "an EC key in SEC 1 without the optional public key", "EC", "256", "SEC1_NO_PUBLIC"));
  }

  /**
   * Returns {@code key} as PEM: PKCS#8, OpenSSL's traditional PKCS#1 / SEC 1 form (as {@code
   * openssl genrsa -traditional} and {@code openssl ecparam -genkey} write them), or SEC 1 without
   * the public key.
   */
  private static String pem(java.security.PrivateKey key, java.security.PublicKey pub, String form)
      throws Exception {
    if (form.equals("PKCS8")) {
      return "-----BEGIN PRIVATE KEY-----\n"
          + Base64.getMimeEncoder().encodeToString(key.getEncoded())
          + "\n-----END PRIVATE KEY-----\n";
    }
    org.bouncycastle.asn1.pkcs.PrivateKeyInfo info =
        org.bouncycastle.asn1.pkcs.PrivateKeyInfo.getInstance(key.getEncoded());
    String type;
    byte[] der;
    if (key.getAlgorithm().equals("RSA")) {
      type = "RSA PRIVATE KEY";
      der = info.parsePrivateKey().toASN1Primitive().getEncoded();
    } else {
      type = "EC PRIVATE KEY";
      org.bouncycastle.asn1.sec.ECPrivateKey inner =
          org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey());
      org.bouncycastle.asn1.ASN1Encodable params = info.getPrivateKeyAlgorithm().getParameters();
      der =
          (form.equals("SEC1_NO_PUBLIC")
                  ? new org.bouncycastle.asn1.sec.ECPrivateKey(256, inner.getKey(), params)
                  : new org.bouncycastle.asn1.sec.ECPrivateKey(
                      256,
                      inner.getKey(),
                      org.bouncycastle.asn1.x509.SubjectPublicKeyInfo.getInstance(pub.getEncoded())
                          .getPublicKeyData(),
                      params))
              .getEncoded();
    }
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder().encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  @ParameterizedTest
  @MethodSource("clientKeys")
  void aClientCertificateIsPresentedToAServerThatRequiresOne(
      String keyAlg, String keySize, String form) throws Exception {
    Path clientStore = dir.resolve("client-" + keyAlg + form + ".p12");
    keytool(
        "-genkeypair",
        "-alias",
        "client",
        "-keyalg",
        keyAlg,
        "-keysize",
        keySize,
        "-dname",
        "CN=kube-scheduler",
        "-validity",
        "2",
        "-keystore",
        clientStore.toString(),
        "-storetype",
        "PKCS12",
        "-storepass",
        PASSWORD,
        "-keypass",
        PASSWORD);
    Path certFile = dir.resolve("client-" + keyAlg + form + ".pem");
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "client",
        "-keystore",
        clientStore.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        certFile.toString());
    KeyStore cks = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(clientStore)) {
      cks.load(in, PASSWORD.toCharArray());
    }
    java.security.PrivateKey key =
        (java.security.PrivateKey) cks.getKey("client", PASSWORD.toCharArray());
    String keyPem = pem(key, cks.getCertificate("client").getPublicKey(), form);
    assertThat(keyPem)
        .startsWith(
            form.equals("PKCS8")
                ? "-----BEGIN PRIVATE KEY-----"
                : "-----BEGIN " + keyAlg + " PRIVATE KEY-----");
    Path keyFile = dir.resolve("client-key-" + keyAlg + form + ".pem");
    Files.writeString(keyFile, keyPem);

    // a second server that trusts only that client certificate and requires it
    KeyStore serverStore = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(dir.resolve("server.p12"))) {
      serverStore.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(serverStore, PASSWORD.toCharArray());
    KeyStore trusted = KeyStore.getInstance("PKCS12");
    trusted.load(null, null);
    trusted.setCertificateEntry("client", cks.getCertificate("client"));
    javax.net.ssl.TrustManagerFactory tmf =
        javax.net.ssl.TrustManagerFactory.getInstance(
            javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trusted);
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
    HttpsServer mtls =
        HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    mtls.setHttpsConfigurator(
        new HttpsConfigurator(ctx) {
          @Override
          public void configure(com.sun.net.httpserver.HttpsParameters params) {
            javax.net.ssl.SSLParameters p = ctx.getDefaultSSLParameters();
            p.setNeedClientAuth(true);
            params.setSSLParameters(p);
          }
        });
    mtls.createContext("/filter", ExtenderTlsTest::answerN1);
    mtls.start();
    try {
      String url = "https://127.0.0.1:" + mtls.getAddress().getPort();
      ExtenderTlsConfig withCert =
          new ExtenderTlsConfig(
              false,
              null,
              certFile.toString(),
              keyFile.toString(),
              caFile.toString(),
              null,
              null,
              null);
      ExtenderTlsConfig withoutCert = tls(false, null, caFile.toString(), null);

      assertThat(call(at(url, withCert))).extracting(NodeInfo::name).containsExactly("n1");
      assertThatThrownBy(() -> call(at(url, withoutCert))).isInstanceOf(SchedulingException.class);
    } finally {
      mtls.stop(0);
    }
  }

  private static HttpExtender at(String url, ExtenderTlsConfig tls) {
    return HttpExtender.create(
        new ExtenderConfig(
            url,
            "filter",
            "",
            "",
            "",
            1,
            true,
            Duration.ofSeconds(10),
            true,
            List.of(),
            false,
            tls));
  }

  @Test
  void insecureWithACaIsRefused() {
    assertThatThrownBy(() -> extender(false, tls(true, null, caFile.toString(), null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("specifying a root certificates file with the insecure flag is not allowed");
  }

  @Test
  void anUnreadableCaFileNamesTheField() {
    assertThatThrownBy(
            () -> extender(false, tls(false, null, dir.resolve("nope.pem").toString(), null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tlsConfig.caFile: cannot read \"");
  }
}
