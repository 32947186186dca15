package io.kubesched.core.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.framework.CustomResource;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Custom resources declared by plugins, watched with dynamic informers. */
final class KubernetesClusterCustomResourcesTest {
  private static final CustomResource POD_GROUPS =
      new CustomResource("scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", true);

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CustomObjectsApi custom = new CustomObjectsApi(client);
  private final KubernetesCluster cluster = new KubernetesCluster(client);

  @AfterEach
  void close() {
    cluster.close();
    server.close();
  }

  private static Map<String, Object> podGroup(String ns, String name, int minMember) {
    Map<String, Object> pg = new LinkedHashMap<>();
    pg.put("apiVersion", "scheduling.x-k8s.io/v1alpha1");
    pg.put("kind", "PodGroup");
    pg.put("metadata", Map.of("name", name, "namespace", ns));
    pg.put("spec", Map.of("minMember", minMember));
    return pg;
  }

  private void create(String ns, String name, int minMember) throws Exception {
    custom
        .createNamespacedCustomObject(
            "scheduling.x-k8s.io", "v1alpha1", ns, "podgroups", podGroup(ns, name, minMember))
        .execute();
  }

  private List<String> names(String ns) {
    return cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", ns).stream()
        .map(o -> (String) ((Map<?, ?>) o.get("metadata")).get("name"))
        .sorted()
        .toList();
  }

  @Test
  void declaredResourcesAreListedThenWatched() throws Exception {
    server.serveCustomResource("scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", true);
    create("default", "g1", 3);
    create("other", "g2", 2);
    cluster.watchCustomResources(List.of(POD_GROUPS));
    cluster.start(Duration.ofSeconds(30)); // a bound, not a wait: returns once synced
    assertThat(names(null)).containsExactly("g1", "g2");
    assertThat(names("default")).containsExactly("g1");
    Map<String, Object> g1 =
        cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", "default").get(0);
    assertThat(g1.get("spec")).isEqualTo(Map.of("minMember", 3.0));
    assertThat(g1.get("kind")).isEqualTo("PodGroup");

    create("default", "g3", 1);
    for (int i = 0; i < 200 && names("default").size() < 2; i++) {
      TimeUnit.MILLISECONDS.sleep(10);
    }
    assertThat(names("default")).containsExactly("g1", "g3");
    // a resource not declared: nothing
    assertThat(cluster.listCustomObjects("example.com/v1", "Thing", null)).isEmpty();
  }

  @Test
  void statusIsWrittenThroughTheStatusSubresource() throws Exception {
    server.serveCustomResource("scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", true);
    create("default", "g1", 2);
    cluster.watchCustomResources(List.of(POD_GROUPS));
    cluster.start(Duration.ofSeconds(30)); // a bound, not a wait: returns once synced
    Map<String, Object> pg = podGroup("default", "g1", 99);
    pg.put("status", Map.of("phase", "Scheduled", "scheduled", 2));
    cluster.updateCustomObjectStatus(pg);
    @SuppressWarnings("unchecked")
    Map<String, Object> stored =
        (Map<String, Object>)
            custom
                .getNamespacedCustomObject(
                    "scheduling.x-k8s.io", "v1alpha1", "default", "podgroups", "g1")
                .execute();
    assertThat(stored.get("status")).isEqualTo(Map.of("phase", "Scheduled", "scheduled", 2.0));
    assertThat(stored.get("spec"))
        .as("only the status is written")
        .isEqualTo(Map.of("minMember", 2.0));

    assertThatThrownBy(() -> cluster.updateCustomObjectStatus(podGroup("default", "gone", 1)))
        .isInstanceOf(ClusterException.class)
        .hasMessage("patch the status of PodGroup default/gone: not found");
  }
}
