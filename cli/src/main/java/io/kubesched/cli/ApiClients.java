package io.kubesched.cli;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;
import io.kubesched.core.config.KubeSchedulerConfiguration.ClientConnection;
import io.kubesched.core.kubernetes.ClientRateLimiter;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Builds the API client of {@code kubesched run} from the effective {@code clientConnection} and
 * {@code --master}, as kube-scheduler's {@code createKubeConfig} does: the kubeconfig file when one
 * is named (else {@code $KUBECONFIG}, {@code ~/.kube/config}, the in-cluster service account), the
 * server overridden by {@code --master}, and client-go's client-side rate limit ({@link
 * ClientRateLimiter}) on every request.
 */
final class ApiClients {
  /** Why no client could be built; the message says why, in a line. */
  static final class ClientConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    ClientConfigException(String message) {
      super(message);
    }
  }

  private ApiClients() {}

  /**
   * Returns the client.
   *
   * @param cc the effective client connection (its kubeconfig, QPS and burst)
   * @param master the API server's address, or {@code null}
   * @param env the process environment
   * @param home the user's home directory
   * @throws ClientConfigException when the kubeconfig is missing or broken, or none is found
   */
  static ApiClient build(ClientConnection cc, String master, Map<String, String> env, Path home)
      throws ClientConfigException {
    ClientBuilder builder = builder(cc.kubeconfig(), master, env, home);
    if (master != null && !master.isEmpty()) {
      builder.setBasePath(master);
    }
    // Informers hold watches open: no read timeout.
    ApiClient client = builder.setReadTimeout(Duration.ZERO).build();
    ClientRateLimiter limiter = ClientRateLimiter.forConfig(cc.qps(), cc.burst());
    if (limiter != null) {
      client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(limiter).build());
    }
    return client;
  }

  private static ClientBuilder builder(
      String kubeconfig, String master, Map<String, String> env, Path home)
      throws ClientConfigException {
    if (kubeconfig != null && !kubeconfig.isEmpty()) {
      return fromFile(Path.of(kubeconfig));
    }
    String fromEnv = env.get("KUBECONFIG");
    if (fromEnv != null && !fromEnv.isEmpty()) {
      return fromFile(Path.of(fromEnv.split(java.io.File.pathSeparator)[0]));
    }
    Path dflt = home.resolve(".kube").resolve("config");
    if (Files.isRegularFile(dflt)) {
      return fromFile(dflt);
    }
    if (master != null && !master.isEmpty()) {
      return new ClientBuilder();
    }
    if (env.get("KUBERNETES_SERVICE_HOST") == null || env.get("KUBERNETES_SERVICE_PORT") == null) {
      throw new ClientConfigException(
          "no kubeconfig: neither --kubeconfig nor --master was given, clientConnection.kubeconfig"
              + " is empty, $KUBECONFIG is unset, "
              + dflt
              + " does not exist, and this is not a pod (unable to load in-cluster configuration,"
              + " KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be defined)");
    }
    try {
      return ClientBuilder.cluster();
    } catch (IOException | RuntimeException e) {
      throw new ClientConfigException(
          "cannot load the in-cluster configuration: " + e.getMessage());
    }
  }

  private static ClientBuilder fromFile(Path file) throws ClientConfigException {
    KubeConfig kc;
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      if (text.isBlank()) {
        throw new ClientConfigException(file + ": not a kubeconfig: the file is empty");
      }
      kc = KubeConfig.loadKubeConfig(new StringReader(text));
    } catch (NoSuchFileException e) {
      throw new ClientConfigException(file + ": no such file or directory");
    } catch (IOException | RuntimeException e) {
      throw new ClientConfigException(file + ": not a kubeconfig: " + e);
    }
    if (kc == null) {
      throw new ClientConfigException(file + ": not a kubeconfig: the file is empty");
    }
    if (kc.getCurrentContext() == null || kc.getServer() == null) {
      throw new ClientConfigException(
          file
              + ": invalid configuration: "
              + (kc.getCurrentContext() == null
                  ? "no current-context"
                  : "context \"" + kc.getCurrentContext() + "\" names no cluster with a server"));
    }
    kc.setFile(file.toAbsolutePath().toFile());
    try {
      return ClientBuilder.kubeconfig(kc);
    } catch (IOException | RuntimeException e) {
      throw new ClientConfigException(file + ": " + e);
    }
  }
}
