package io.kubesched.cli.extender;

import io.kubernetes.client.util.SSLUtils;
import io.kubesched.core.extender.ExtenderTls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS context of the extender server, from PEM files as kube components take them: {@code
 * --tls-cert-file} (the certificate, then any intermediates), {@code --tls-private-key-file}
 * (PKCS#8 {@code PRIVATE KEY}, PKCS#1 {@code RSA PRIVATE KEY} or SEC 1 {@code EC PRIVATE KEY}, read
 * by client-java's {@link SSLUtils#loadKey(byte[])}) and, for client-certificate authentication,
 * {@code --client-ca-file} (the CAs whose certificates clients must present, e.g. the one that
 * signed the {@code tlsConfig.certFile} of kube-scheduler's extender entry).
 */
public final class ServerTls {
  private ServerTls() {}

  /**
   * Builds the context.
   *
   * @param certFile the server certificate chain (PEM)
   * @param keyFile the server's private key (PEM)
   * @param clientCaFile the client CAs (PEM), or {@code null} when clients are not authenticated
   * @throws IllegalArgumentException naming the flag whose file cannot be read or decoded
   */
  public static SSLContext context(Path certFile, Path keyFile, Path clientCaFile) {
    List<X509Certificate> chain = certificates(certFile, "--tls-cert-file");
    PrivateKey key;
    try {
      key = ExtenderTls.privateKey(read(keyFile, "--tls-private-key-file"));
    } catch (IOException | GeneralSecurityException | RuntimeException e) {
      throw new IllegalArgumentException(
          "--tls-private-key-file: cannot decode \""
              + keyFile
              + "\" (PEM \"PRIVATE KEY\", \"RSA PRIVATE KEY\" or \"EC PRIVATE KEY\" expected): "
              + e.getMessage(),
          e);
    }
    try {
      checkPair(chain.iterator().next().getPublicKey(), key);
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      char[] password = new char[0];
      ks.setKeyEntry("server", key, password, chain.toArray(new Certificate[0]));
      KeyManagerFactory kmf =
          KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password);
      TrustManagerFactory tmf = null;
      if (clientCaFile != null) {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        int i = 0;
        for (Certificate c : certificates(clientCaFile, "--client-ca-file")) {
          trust.setCertificateEntry("ca-" + i++, c);
        }
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      }
      SSLContext ctx = SSLContext.getInstance("TLS");
      ctx.init(kmf.getKeyManagers(), tmf == null ? null : tmf.getTrustManagers(), null);
      return ctx;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalArgumentException(
          "--tls-cert-file: \""
              + certFile
              + "\" and --tls-private-key-file: \""
              + keyFile
              + "\" do not make a key pair: "
              + e.getMessage(),
          e);
    }
  }

  /**
   * Fails unless {@code key} signs what {@code pub} verifies (the pair Go's X509KeyPair checks).
   */
  private static void checkPair(PublicKey pub, PrivateKey key) throws GeneralSecurityException {
    String alg =
        key.getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256with" + key.getAlgorithm();
    byte[] probe = "kubesched".getBytes(StandardCharsets.US_ASCII);
    boolean ok;
    try {
      Signature signer = Signature.getInstance(alg);
      signer.initSign(key);
      signer.update(probe);
      byte[] sig = signer.sign();
      Signature verifier = Signature.getInstance(alg);
      verifier.initVerify(pub);
      verifier.update(probe);
      ok = verifier.verify(sig);
    } catch (GeneralSecurityException e) {
      ok = false;
    }
    if (!ok) {
      throw new GeneralSecurityException("private key does not match public key");
    }
  }

  private static byte[] read(Path file, String flag) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(flag + ": cannot read \"" + file + "\": " + e, e);
    }
  }

  private static List<X509Certificate> certificates(Path file, String flag) {
    byte[] pem = read(file, flag);
    try {
      return ExtenderTls.certificates(pem);
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException(
          flag + ": \"" + file + "\" is not a PEM certificate: " + e.getMessage(), e);
    }
  }
}
