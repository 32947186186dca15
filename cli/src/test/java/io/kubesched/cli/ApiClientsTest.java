package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubesched.core.config.KubeSchedulerConfiguration.ClientConnection;
import io.kubesched.core.kubernetes.ClientRateLimiter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ApiClientsTest {
  @TempDir Path dir;

  private static ClientConnection cc(String kubeconfig) {
    return new ClientConnection(kubeconfig, "", "application/json", 200f, 300);
  }

  static Stream<Arguments> brokenKubeconfigs() {
    return Stream.of(
        Arguments.of("empty", "", ": not a kubeconfig: the file is empty"),
        Arguments.of(
            "no current context",
            "apiVersion: v1\nkind: Config\nclusters: []\n",
            ": invalid configuration: no current-context"),
        Arguments.of(
            "a context without cluster",
            "apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts: []\n",
            ": invalid configuration: context \"x\" names no cluster with a server"),
        Arguments.of("not YAML", "clusters: [\n", ": not a kubeconfig: "));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("brokenKubeconfigs")
  void aBrokenKubeconfigSaysWhy(String name, String text, String why) throws Exception {
    Path file = Files.writeString(dir.resolve("kc"), text);
    assertThatThrownBy(() -> ApiClients.build(cc(file.toString()), null, Map.of(), dir))
        .isInstanceOf(ApiClients.ClientConfigException.class)
        .hasMessageStartingWith(file + why);
  }

  @Test
  void aMissingKubeconfigSaysSo() {
    Path file = dir.resolve("missing");
    assertThatThrownBy(() -> ApiClients.build(cc(file.toString()), null, Map.of(), dir))
        .hasMessage(file + ": no such file or directory");
  }

  @Test
  void noKubeconfigAnywhereOutsideAPodSaysWhereItLooked() {
    assertThatThrownBy(() -> ApiClients.build(cc(""), null, Map.of(), dir))
        .hasMessage(
            "no kubeconfig: neither --kubeconfig nor --master was given,"
                + " clientConnection.kubeconfig is empty, $KUBECONFIG is unset, "
                + dir.resolve(".kube/config")
                + " does not exist, and this is not a pod (unable to load in-cluster"
                + " configuration, KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be"
                + " defined)");
  }

  @Test
  void masterAloneIsTheServerAndEveryCallIsRateLimited() throws Exception {
    ApiClient client = ApiClients.build(cc(""), "http://127.0.0.1:6443", Map.of(), dir);
    assertThat(client.getBasePath()).isEqualTo("http://127.0.0.1:6443");
    assertThat(client.getHttpClient().interceptors())
        .filteredOn(ClientRateLimiter.class::isInstance)
        .singleElement()
        .satisfies(
            i -> {
              ClientRateLimiter l = (ClientRateLimiter) i;
              assertThat(new double[] {l.qps(), l.burst()}).containsExactly(200, 300);
            });
  }

  @Test
  void negativeQpsTurnsTheLimitOff() throws Exception {
    ApiClient client =
        ApiClients.build(
            new ClientConnection("", "", "", -1f, 0), "http://127.0.0.1:6443", Map.of(), dir);
    assertThat(client.getHttpClient().interceptors())
        .noneMatch(ClientRateLimiter.class::isInstance);
  }
}
