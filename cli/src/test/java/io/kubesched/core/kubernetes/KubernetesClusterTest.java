package io.kubesched.core.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.util.Watch;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class KubernetesClusterTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.discover();

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final KubernetesCluster cluster = new KubernetesCluster(client);
  private Scheduler scheduler;

  @AfterEach
  void close() {
    if (scheduler != null) {
      scheduler.close();
    }
    cluster.close();
    server.close();
  }

  private void startScheduler() throws Exception {
    core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("default"))).execute();
    cluster.start(Duration.ofSeconds(30)); // a bound, not a wait: returns once synced
    scheduler =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(ConfigurationLoader.defaults(REGISTRY))
            .registry(REGISTRY)
            .build();
    scheduler.startSchedulingLoop();
  }

  private static V1Node node(String name) {
    return MakeNode.node()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
        .obj();
  }

  private static V1Pod pod(String name, String cpu) {
    return MakePod.pod().name(name).container("registry.k8s.io/pause:3.10").req("cpu", cpu).obj();
  }

  /** Waits until the cluster shows pod {@code name} in a state matching {@code until}. */
  private V1Pod await(String name, Predicate<V1Pod> until) throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    V1Pod[] seen = new V1Pod[1];
    ClusterListener l =
        new ClusterListener() {
          @Override
          public void onPodAdd(V1Pod pod) {
            check(pod);
          }

          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            check(pod);
          }

          private void check(V1Pod pod) {
            if (pod.getMetadata().getName().equals(name) && until.test(pod)) {
              seen[0] = pod;
              done.countDown();
            }
          }
        };
    cluster.addListener(l);
    try {
      assertThat(done.await(5, TimeUnit.SECONDS)).as("pod %s reached the state", name).isTrue();
      return seen[0];
    } finally {
      cluster.removeListener(l);
    }
  }

  private static boolean bound(V1Pod p) {
    return p.getSpec().getNodeName() != null;
  }

  private static V1PodCondition scheduled(V1Pod p) {
    if (p.getStatus() == null || p.getStatus().getConditions() == null) {
      return null;
    }
    return p.getStatus().getConditions().stream()
        .filter(c -> c.getType().equals("PodScheduled"))
        .findFirst()
        .orElse(null);
  }

  @Test
  void aPendingPodIsBoundByARunningScheduler() throws Exception {
    core.createNode(node("n1")).execute();
    core.createNamespacedPod("default", pod("p1", "1")).execute();
    startScheduler();

    await("p1", KubernetesClusterTest::bound);

    V1Pod stored = core.readNamespacedPod("p1", "default").execute();
    assertThat(stored.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(scheduled(stored).getStatus()).isEqualTo("True");
    assertThat(cluster.listNodes())
        .extracting(n -> n.getMetadata().getName())
        .containsExactly("n1");
    assertThat(cluster.namespaceLabels("default"))
        .containsEntry("kubernetes.io/metadata.name", "default");
  }

  @Test
  void anUnschedulablePodGetsPodScheduledFalseAndIsBoundWhenANodeIsAdded() throws Exception {
    core.createNode(node("n1")).execute();
    startScheduler();
    String rv = core.listEventForAllNamespaces().execute().getMetadata().getResourceVersion();
    core.createNamespacedPod("default", pod("big", "6")).execute();

    V1Pod failed =
        await("big", p -> scheduled(p) != null && "False".equals(scheduled(p).getStatus()));
    V1PodCondition c = scheduled(failed);
    assertThat(c.getReason()).isEqualTo("Unschedulable");
    assertThat(c.getMessage())
        .isEqualTo(
            "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1"
                + " No preemption victims found for incoming pod.");
    assertThat(c.getLastTransitionTime()).isNotNull();
    try (Watch<CoreV1Event> w =
        Watch.createWatch(
            client,
            core.listEventForAllNamespaces()
                .watch(true)
                .resourceVersion(rv)
                .timeoutSeconds(5)
                .buildCall(null),
            new TypeToken<Watch.Response<CoreV1Event>>() {}.getType())) {
      CoreV1Event e = w.next().object;
      assertThat(e.getReason()).isEqualTo("FailedScheduling");
      assertThat(e.getType()).isEqualTo("Warning");
      assertThat(e.getMessage()).isEqualTo(c.getMessage());
      assertThat(e.getInvolvedObject().getName()).isEqualTo("big");
    }

    core.createNode(
            MakeNode.node()
                .name("n2")
                .label("kubernetes.io/hostname", "n2")
                .capacity("cpu", "8", "memory", "8Gi", "pods", "110")
                .obj())
        .execute();

    V1Pod bound = await("big", KubernetesClusterTest::bound);
    assertThat(bound.getSpec().getNodeName()).isEqualTo("n2");
  }

  @Test
  void preemptionVictimsAreDeletedAndTheNominatedNodeIsPatched() throws Exception {
    core.createNode(node("n1")).execute();
    V1Pod low = MakePod.pod().name("low").container("pause").req("cpu", "3").node("n1").obj();
    core.createNamespacedPod("default", low).execute();
    startScheduler();
    V1Pod high = MakePod.pod().name("high").container("pause").req("cpu", "3").priority(100).obj();
    core.createNamespacedPod("default", high).execute();

    V1Pod bound = await("high", KubernetesClusterTest::bound);

    assertThat(bound.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(cluster.getPod("default", "low")).isEmpty();
    V1Pod stored = core.readNamespacedPod("high", "default").execute();
    assertThat(stored.getStatus().getNominatedNodeName()).isEqualTo("n1");
    assertThat(core.listNamespacedPod("default").execute().getItems())
        .extracting(p -> p.getMetadata().getName())
        .containsExactly("high");
  }

  @Test
  void manyPodsFillTheNodesExactlyWithoutOvercommitting() throws Exception {
    for (int n = 0; n < 5; n++) {
      core.createNode(node("n" + n)).execute();
    }
    startScheduler();
    java.util.Set<String> bound = java.util.concurrent.ConcurrentHashMap.newKeySet();
    CountDownLatch all = new CountDownLatch(20);
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onPodUpdate(V1Pod oldPod, V1Pod pod) {
            if (bound(pod) && bound.add(pod.getMetadata().getName())) {
              all.countDown();
            }
          }
        });
    for (int p = 0; p < 20; p++) {
      core.createNamespacedPod("default", pod("p" + p, "1")).execute();
    }
    assertThat(all.await(5, TimeUnit.SECONDS)).as("bound: %s", bound).isTrue();

    core.createNamespacedPod("default", pod("extra", "1")).execute();
    V1Pod failed =
        await("extra", p -> scheduled(p) != null && "False".equals(scheduled(p).getStatus()));

    assertThat(scheduled(failed).getMessage())
        .isEqualTo(
            "0/5 nodes are available: 5 Insufficient cpu. preemption: 0/5 nodes are available: 5"
                + " No preemption victims found for incoming pod.");
    java.util.Map<String, Long> perNode =
        core.listNamespacedPod("default").execute().getItems().stream()
            .filter(KubernetesClusterTest::bound)
            .collect(
                java.util.stream.Collectors.groupingBy(
                    p -> p.getSpec().getNodeName(), java.util.stream.Collectors.counting()));
    assertThat(perNode)
        .isEqualTo(java.util.Map.of("n0", 4L, "n1", 4L, "n2", 4L, "n3", 4L, "n4", 4L));
  }
}
