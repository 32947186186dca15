package io.kubesched.core.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.util.Watch;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

final class KubernetesClusterWritesTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final KubernetesCluster cluster =
      new KubernetesCluster(client, Clock.fixed(NOW, ZoneOffset.UTC), "my-scheduler");

  @BeforeEach
  void setUp() throws Exception {
    core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("default"))).execute();
    Map<String, Quantity> capacity =
        Map.of("cpu", Quantity.fromString("4"), "pods", Quantity.fromString("110"));
    core.createNode(
            new V1Node()
                .metadata(new V1ObjectMeta().name("n1").uid("n1"))
                .spec(new V1NodeSpec())
                .status(new V1NodeStatus().capacity(capacity).allocatable(capacity)))
        .execute();
    core.createNamespacedPod(
            "default",
            new V1Pod()
                .metadata(new V1ObjectMeta().name("p").namespace("default").uid("default/p"))
                .spec(
                    new V1PodSpec()
                        .addContainersItem(new V1Container().name("con0").image("pause")))
                .status(new V1PodStatus()))
        .execute();
    core.createNamespacedService(
            "default", new V1Service().metadata(new V1ObjectMeta().name("svc")))
        .execute();
    new AppsV1Api(client)
        .createNamespacedReplicaSet(
            "other", new V1ReplicaSet().metadata(new V1ObjectMeta().name("rs")))
        .execute();
    cluster.start(Duration.ofSeconds(30)); // a bound, not a wait: returns once synced
  }

  @AfterEach
  void close() {
    cluster.close();
    server.close();
  }

  private V1Pod stored() throws Exception {
    return core.readNamespacedPod("p", "default").execute();
  }

  /** Waits until the informer delivered the pod's next {@code n} updates. */
  private CountDownLatch updates(int n) {
    CountDownLatch l = new CountDownLatch(n);
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            l.countDown();
          }
        });
    return l;
  }

  @Test
  void replaysNodesThenPodsAndServesTheListersFromTheInformers() {
    List<String> seen = new ArrayList<>();
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onNodeAdd(V1Node node) {
            seen.add("node " + node.getMetadata().getName());
          }

          @Override
          public void onPodAdd(V1Pod pod) {
            seen.add("pod " + pod.getMetadata().getName());
          }
        });
    assertThat(seen).containsExactly("node n1", "pod p");
    assertThat(cluster.getPod("default", "p")).isPresent();
    assertThat(cluster.getNode("n1")).isPresent();
    assertThat(cluster.listServices("default"))
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("svc");
    assertThat(cluster.listServices("other")).isEmpty();
    assertThat(cluster.listReplicaSets("other")).hasSize(1);
    assertThat(cluster.listStatefulSets("default")).isEmpty();
    assertThat(cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", null))
        .isEmpty();
  }

  @Test
  void bindingAnAlreadyBoundPodIsAConflictWithTheServersMessage() throws Exception {
    V1Pod p = stored();
    cluster.bind(p, "n1");
    assertThat(stored().getSpec().getNodeName()).isEqualTo("n1");
    assertThatThrownBy(() -> cluster.bind(p, "n1"))
        .isInstanceOfSatisfying(
            ClusterException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(ClusterException.Reason.CONFLICT);
              assertThat(e.getMessage())
                  .isEqualTo(
                      "Operation cannot be fulfilled on pods/binding \"p\": pod p is already"
                          + " assigned to node \"n1\"");
            });
  }

  @Test
  void thePodScheduledPatchSetsTheConditionAndTheNominatedNode() throws Exception {
    CountDownLatch delivered = updates(1);
    cluster.patchPodScheduledCondition(stored(), "Unschedulable", "0/1 nodes", "n1");
    V1Pod p = stored();
    assertThat(p.getStatus().getConditions())
        .containsExactly(
            new V1PodCondition()
                .type("PodScheduled")
                .status("False")
                .reason("Unschedulable")
                .message("0/1 nodes")
                .lastTransitionTime(OffsetDateTime.ofInstant(NOW, ZoneOffset.UTC)));
    assertThat(p.getStatus().getNominatedNodeName()).isEqualTo("n1");

    assertThat(delivered.await(5, TimeUnit.SECONDS)).isTrue();
    String rv = p.getMetadata().getResourceVersion();
    cluster.patchPodScheduledCondition(p, "Unschedulable", "0/1 nodes", "n1");
    assertThat(stored().getMetadata().getResourceVersion()).as("nothing changed").isEqualTo(rv);

    cluster.setNominatedNodeName(p, "");
    assertThat(stored().getStatus().getNominatedNodeName()).isNull();
  }

  @Test
  void updatePodConditionAddsOrReplacesByType() throws Exception {
    cluster.updatePodCondition(
        stored(), new V1PodCondition().type("DisruptionTarget").status("True").reason("R"));
    cluster.updatePodCondition(stored(), new V1PodCondition().type("Custom").status("False"));
    assertThat(stored().getStatus().getConditions())
        .extracting(V1PodCondition::getType, V1PodCondition::getStatus)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("DisruptionTarget", "True"),
            org.assertj.core.groups.Tuple.tuple("Custom", "False"));
  }

  @Test
  void deletingAPodThatIsGoneIsNotAnError() throws Exception {
    V1Pod p = stored();
    cluster.deletePod(p);
    assertThat(core.listNamespacedPod("default").execute().getItems()).isEmpty();
    cluster.deletePod(p);
  }

  @Test
  void aRepeatedEventRaisesTheCountOfTheFirst() throws Exception {
    String rv = core.listEventForAllNamespaces().execute().getMetadata().getResourceVersion();
    V1Pod p = stored();
    cluster.event(p, "Warning", "FailedScheduling", "Scheduling", "0/1 nodes are available");
    cluster.event(p, "Warning", "FailedScheduling", "Scheduling", "0/1 nodes are available");
    cluster.event(p, "Normal", "Scheduled", "Binding", "Successfully assigned default/p to n1");
    List<String> seen = new ArrayList<>();
    try (Watch<CoreV1Event> w =
        Watch.createWatch(
            client,
            core.listEventForAllNamespaces()
                .watch(true)
                .resourceVersion(rv)
                .timeoutSeconds(5)
                .buildCall(null),
            new TypeToken<Watch.Response<CoreV1Event>>() {}.getType())) {
      for (int i = 0; i < 3; i++) {
        Watch.Response<CoreV1Event> r = w.next();
        CoreV1Event e = r.object;
        seen.add(
            r.type
                + " "
                + e.getMetadata().getNamespace()
                + " "
                + e.getInvolvedObject().getKind()
                + "/"
                + e.getInvolvedObject().getName()
                + " "
                + e.getReason()
                + " x"
                + e.getCount()
                + " from "
                + e.getSource().getComponent());
      }
    }
    assertThat(seen)
        .containsExactly(
            "ADDED default Pod/p FailedScheduling x1 from my-scheduler",
            "MODIFIED default Pod/p FailedScheduling x2 from my-scheduler",
            "ADDED default Pod/p Scheduled x1 from my-scheduler");
  }

  @Test
  void patchNodeAnnotationsSetsAndRemovesOnlyTheNamedAnnotations() throws Exception {
    Map<String, String> set = new java.util.LinkedHashMap<>();
    set.put("reserve.cpu/u1", "3");
    set.put("keep", "yes");
    cluster.patchNodeAnnotations("n1", set);
    Map<String, String> remove = new java.util.LinkedHashMap<>();
    remove.put("reserve.cpu/u1", null);
    cluster.patchNodeAnnotations("n1", remove);
    assertThat(core.readNode("n1").execute().getMetadata().getAnnotations())
        .isEqualTo(Map.of("keep", "yes"));
    assertThatThrownBy(() -> cluster.patchNodeAnnotations("missing", Map.of("a", "b")))
        .isInstanceOf(ClusterException.class)
        .hasMessageContaining("nodes \"missing\" not found");
  }
}
