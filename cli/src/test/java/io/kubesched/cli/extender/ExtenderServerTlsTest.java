package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.config.ExtenderTlsConfig;
import io.kubesched.core.extender.HttpExtender;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.bouncycastle.asn1.DERBitString;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The extender server over TLS, called by kubesched's HTTP extender client (the port of
 * kube-scheduler's), with server keys in every PEM form and client-certificate authentication.
 * Self-signed certificates are made in the test with BouncyCastle.
 */
final class ExtenderServerTlsTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.discover();

  @TempDir static Path dir;

  /** PEM files by name: rsa/ec certificates, keys in PKCS#8, PKCS#1 and SEC 1, a client pair. */
  @BeforeAll
  static void certificates() throws Exception {
    pair("rsa", "RSA", "CN=extender");
    pair("ec", "EC", "CN=extender");
    pair("client", "EC", "CN=kube-scheduler");
    pair("stranger", "EC", "CN=stranger");
  }

  private static void pair(String name, String alg, String dname) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(alg);
    if (alg.equals("RSA")) {
      generator.initialize(2048);
    } else {
      generator.initialize(new ECGenParameterSpec("secp256r1"));
    }
    KeyPair pair = generator.generateKeyPair();
    X500Name subject = new X500Name(dname);
    Instant now = Instant.now();
    X509v3CertificateBuilder builder =
        new JcaX509v3CertificateBuilder(
            subject,
            BigInteger.valueOf(now.toEpochMilli()),
            Date.from(now.minus(Duration.ofHours(1))),
            Date.from(now.plus(Duration.ofDays(2))),
            subject,
            pair.getPublic());
    builder.addExtension(
        Extension.subjectAlternativeName,
        false,
        new GeneralNames(
            new GeneralName[] {
              new GeneralName(GeneralName.dNSName, "localhost"),
              new GeneralName(GeneralName.iPAddress, "127.0.0.1")
            }));
    X509Certificate cert =
        new JcaX509CertificateConverter()
            .getCertificate(
                builder.build(
                    new JcaContentSignerBuilder(
                            alg.equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA")
                        .build(pair.getPrivate())));
    Files.writeString(dir.resolve(name + ".crt"), pem("CERTIFICATE", cert.getEncoded()));
    PrivateKey key = pair.getPrivate();
    Files.writeString(dir.resolve(name + ".pkcs8.key"), pem("PRIVATE KEY", key.getEncoded()));
    PrivateKeyInfo info = PrivateKeyInfo.getInstance(key.getEncoded());
    byte[] traditional;
    if (alg.equals("RSA")) {
      traditional = info.parsePrivateKey().toASN1Primitive().getEncoded();
    } else {
      // SEC 1 as openssl and Go write it: the curve and the public key included
      java.security.interfaces.ECPrivateKey ec = (java.security.interfaces.ECPrivateKey) key;
      byte[] point =
          SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded())
              .getPublicKeyData()
              .getBytes();
      traditional =
          new org.bouncycastle.asn1.sec.ECPrivateKey(
                  ec.getParams().getOrder().bitLength(),
                  ec.getS(),
                  new DERBitString(point),
                  info.getPrivateKeyAlgorithm().getParameters())
              .getEncoded();
    }
    Files.writeString(
        dir.resolve(name + ".traditional.key"),
        pem(alg.equals("RSA") ? "RSA PRIVATE KEY" : "EC PRIVATE KEY", traditional));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String file(String name) {
    return dir.resolve(name).toString();
  }

  private static ExtenderServer server(String cert, String key, String clientCa) throws Exception {
    InMemoryCluster cluster = new InMemoryCluster();
    ExtenderServer s =
        new ExtenderServer(
            ConfigurationLoader.parse(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
                REGISTRY),
            REGISTRY,
            null,
            cluster,
            false,
            io.kubesched.framework.FeatureGates.defaults(),
            ExtenderServer.Settings.defaults()
                .withTls(
                    ServerTls.context(
                        dir.resolve(cert),
                        dir.resolve(key),
                        clientCa == null ? null : dir.resolve(clientCa)),
                    clientCa != null));
    s.start(new InetSocketAddress("127.0.0.1", 0));
    return s;
  }

  /** kube-scheduler's extender client, trusting the server's certificate. */
  private static HttpExtender client(ExtenderServer s, String serverCert, String cert, String key) {
    return HttpExtender.create(
        new ExtenderConfig(
            "https://127.0.0.1:" + s.address().getPort(),
            "filter",
            "",
            "",
            "",
            1,
            false,
            Duration.ofSeconds(10),
            false,
            List.of(),
            false,
            new ExtenderTlsConfig(
                false,
                "",
                cert == null ? "" : file(cert),
                key == null ? "" : file(key),
                file(serverCert),
                "",
                "",
                "")));
  }

  private static SchedulerExtender.FilterResult filter(HttpExtender client) {
    return client.filter(
        PodInfo.of(MakePod.pod().name("p").req("cpu", "2").obj()),
        List.of(
            NodeInfo.of(MakeNode.node().name("small").capacity("cpu", "1", "pods", "10").obj()),
            NodeInfo.of(MakeNode.node().name("big").capacity("cpu", "4", "pods", "10").obj())));
  }

  static Stream<Arguments> serverKeys() {
    return Stream.of(
        argumentSet("RSA, PKCS#8", "rsa.crt", "rsa.pkcs8.key"),
        argumentSet("RSA, PKCS#1", "rsa.crt", "rsa.traditional.key"),
        argumentSet("EC, PKCS#8", "ec.crt", "ec.pkcs8.key"),
        argumentSet("EC, SEC 1", "ec.crt", "ec.traditional.key"));
  }

  @ParameterizedTest
  @MethodSource("serverKeys")
  void kubeSchedulersClientFiltersOverTls(String cert, String key) throws Exception {
    try (ExtenderServer s = server(cert, key, null)) {
      SchedulerExtender.FilterResult r = filter(client(s, cert, null, null));

      assertThat(r.feasible()).extracting(NodeInfo::name).containsExactly("big");
      assertThat(r.failed()).isEqualTo(Map.of("small", "Insufficient cpu"));
    }
  }

  @Test
  void withAClientCaAClientPresentingACertificateOfItIsServed() throws Exception {
    try (ExtenderServer s = server("ec.crt", "ec.pkcs8.key", "client.crt")) {
      SchedulerExtender.FilterResult r =
          filter(client(s, "ec.crt", "client.crt", "client.traditional.key"));

      assertThat(r.feasible()).extracting(NodeInfo::name).containsExactly("big");
    }
  }

  static Stream<Arguments> unauthenticated() {
    return Stream.of(
        argumentSet("no client certificate", null, null),
        argumentSet("a certificate of another CA", "stranger.crt", "stranger.pkcs8.key"));
  }

  @ParameterizedTest
  @MethodSource("unauthenticated")
  void withAClientCaOtherClientsAreRefusedAtTheHandshake(String cert, String key) throws Exception {
    try (ExtenderServer s = server("rsa.crt", "rsa.pkcs8.key", "client.crt")) {
      HttpExtender client = client(s, "rsa.crt", cert, key);

      assertThatThrownBy(() -> filter(client)).isInstanceOf(SchedulingException.class);
      assertThat(s.metrics().count("filter", 200)).isZero();
    }
  }

  @Test
  void aPlainHttpClientGetsNoAnswerFromATlsServer() throws Exception {
    try (ExtenderServer s = server("rsa.crt", "rsa.pkcs8.key", null);
        RawHttp c = new RawHttp(s.address())) {
      String answer = c.send(RawHttp.post("/filter", "{}")).readToEnd();

      assertThat(answer).doesNotStartWith("HTTP/1.1 200");
    }
  }

  static Stream<Arguments> badFiles() {
    return Stream.of(
        argumentSet(
            "a missing certificate",
            "nope.crt",
            "rsa.pkcs8.key",
            null,
            "--tls-cert-file: cannot read \"" + file("nope.crt") + "\""),
        argumentSet(
            "a key that is not PEM",
            "rsa.crt",
            "rsa.crt",
            null,
            "--tls-private-key-file: cannot decode \"" + file("rsa.crt") + "\""),
        argumentSet(
            "a key of another certificate",
            "rsa.crt",
            "ec.pkcs8.key",
            null,
            "--tls-cert-file: \"" + file("rsa.crt") + "\" and --tls-private-key-file: \""),
        argumentSet(
            "a client CA that is not a certificate",
            "rsa.crt",
            "rsa.pkcs8.key",
            "rsa.pkcs8.key",
            "--client-ca-file: "));
  }

  @ParameterizedTest
  @MethodSource("badFiles")
  void unusableFilesAreNamed(String cert, String key, String ca, String message) {
    assertThatThrownBy(
            () ->
                ServerTls.context(
                    dir.resolve(cert), dir.resolve(key), ca == null ? null : dir.resolve(ca)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }
}
