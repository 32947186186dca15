package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.cli.RunKubeFlagsTest.Running;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import io.kubesched.testing.apiserver.Faults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Coscheduling with scheduler-plugins' PodGroups under {@code kubesched run}. */
final class RunGangTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final CustomObjectsApi custom = new CustomObjectsApi(client);
  @TempDir Path dir;
  private Running run;

  @BeforeEach
  void serveCrd() {
    server.serveCustomResource("scheduling.x-k8s.io", "v1alpha1", "podgroups", "PodGroup", true);
  }

  @AfterEach
  void close() throws Exception {
    if (run != null) {
      assertThat(run.stop()).as("stderr: %s", run.err()).isZero();
    }
    server.close();
  }

  private void start() throws Exception {
    run =
        Running.start(
            "--config",
            Path.of("../examples/configs/coscheduling.yaml").toString(),
            "--kubeconfig",
            RunKubeFlagsTest.kubeconfig(dir, server.url()).toString(),
            "--leader-elect=false",
            "--metrics-port=0");
  }

  private void node(String name, String cpu) throws Exception {
    core.createNode(
            MakeNode.node()
                .name(name)
                .label("kubernetes.io/hostname", name)
                .capacity("cpu", cpu, "memory", "8Gi", "pods", "110")
                .obj())
        .execute();
  }

  private void podGroup(String name, int minMember, Integer timeoutSeconds) throws Exception {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minMember", minMember);
    if (timeoutSeconds != null) {
      spec.put("scheduleTimeoutSeconds", timeoutSeconds);
    }
    Map<String, Object> pg = new LinkedHashMap<>();
    pg.put("apiVersion", "scheduling.x-k8s.io/v1alpha1");
    pg.put("kind", "PodGroup");
    pg.put("metadata", Map.of("name", name, "namespace", "default"));
    pg.put("spec", spec);
    custom
        .createNamespacedCustomObject("scheduling.x-k8s.io", "v1alpha1", "default", "podgroups", pg)
        .execute();
  }

  private void pod(MakePod p) throws Exception {
    core.createNamespacedPod("default", p.obj()).execute();
  }

  private static MakePod member(String name, String group) {
    return MakePod.pod()
        .name(name)
        .label("scheduling.x-k8s.io/pod-group", group)
        .container("pause")
        .req("cpu", "1");
  }

  private Map<String, String> placements() throws Exception {
    Map<String, String> out = new TreeMap<>();
    for (V1Pod p : core.listNamespacedPod("default").execute().getItems()) {
      out.put(
          p.getMetadata().getName(),
          p.getSpec().getNodeName() == null ? "" : p.getSpec().getNodeName());
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> status(String group) throws Exception {
    Map<String, Object> pg =
        (Map<String, Object>)
            custom
                .getNamespacedCustomObject(
                    "scheduling.x-k8s.io", "v1alpha1", "default", "podgroups", group)
                .execute();
    return (Map<String, Object>) pg.get("status");
  }

  private static void await(BooleanSupplier condition) throws Exception {
    for (int i = 0; i < 400 && !condition.getAsBoolean(); i++) {
      TimeUnit.MILLISECONDS.sleep(25);
    }
  }

  private boolean unchecked(java.util.concurrent.Callable<Boolean> c) {
    try {
      return c.call();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPodGroupIsScheduledAllTogetherAndItsStatusUpdated() throws Exception {
    node("n1", "2");
    node("n2", "2");
    podGroup("g", 3, null);
    for (String name : List.of("p1", "p2", "p3")) {
      pod(member(name, "g").ownerReference("Job", "train"));
    }
    start();
    await(() -> unchecked(() -> !placements().containsValue("")));
    assertThat(placements().values()).doesNotContain("");
    await(
        () -> unchecked(() -> status("g") != null && "Scheduled".equals(status("g").get("phase"))));
    Map<String, Object> st = new LinkedHashMap<>(status("g"));
    assertThat(st.remove("scheduleStartTime")).isNotNull();
    assertThat(st)
        .isEqualTo(
            Map.of(
                "phase", "Scheduled",
                "occupiedBy", "default/train",
                "scheduled", 3.0,
                "running", 0.0,
                "succeeded", 0.0,
                "failed", 0.0));
  }

  @Test
  void aGangThatCannotCompleteReleasesItsNodesAtItsTimeout() throws Exception {
    node("n1", "2");
    podGroup("g", 3, 1);
    pod(member("m1", "g"));
    pod(member("m2", "g"));
    // the third member exists but is gated: the other two wait at Permit, holding n1
    pod(member("m3", "g").schedulingGate("example.com/hold"));
    start();
    TimeUnit.MILLISECONDS.sleep(300);
    pod(MakePod.pod().name("big").container("pause").req("cpu", "2"));
    await(() -> unchecked(() -> "n1".equals(placements().get("big"))));
    assertThat(placements()).isEqualTo(Map.of("m1", "", "m2", "", "m3", "", "big", "n1"));
    // released at the group's timeout (the backoff that follows, between a member's retries, is
    // asserted on simulated time in plugins-sample's CoschedulingSchedulerTest)
    assertThat(failures())
        .anyMatch(
            e ->
                e.getInvolvedObject().getName().equals("m1")
                    && e.getMessage()
                        .contains(
                            "rejected due to timeout after waiting 1s at plugin Coscheduling"));
  }

  @Test
  void aMemberWithoutPodGroupFailsWithAClearMessage() throws Exception {
    node("n1", "2");
    pod(member("lonely", "missing"));
    start();
    await(
        () ->
            unchecked(
                () ->
                    core.listNamespacedEvent("default").execute().getItems().stream()
                        .anyMatch(e -> "FailedScheduling".equals(e.getReason()))));
    List<String> messages =
        core.listNamespacedEvent("default").execute().getItems().stream()
            .filter(e -> "FailedScheduling".equals(e.getReason()))
            .map(CoreV1Event::getMessage)
            .toList();
    assertThat(messages)
        .containsExactly(
            "0/1 nodes are available: PodGroup default/missing not found (the pod's label"
                + " scheduling.x-k8s.io/pod-group=missing names no scheduling.x-k8s.io/v1alpha1"
                + " PodGroup). preemption: 0/1 nodes are available: 1 Preemption is not helpful"
                + " for scheduling.");
    assertThat(Files.exists(dir)).isTrue();
  }

  private List<CoreV1Event> failures() throws Exception {
    return core.listNamespacedEvent("default").execute().getItems().stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .toList();
  }

  @Test
  void aPodGroupCreatedAfterItsPodsRequeuesThemAtOnce() throws Exception {
    node("n1", "2");
    node("n2", "2");
    for (String name : List.of("p1", "p2", "p3")) {
      pod(member(name, "late"));
    }
    start();
    await(() -> unchecked(() -> failures().size() == 3));
    assertThat(failures())
        .allSatisfy(e -> assertThat(e.getMessage()).contains("PodGroup default/late not found"));
    podGroup("late", 3, null);
    // the PodGroup/Add event requeues the members (after their 1s backoff): without it they would
    // wait for the unschedulable pods' 5-minute flush, far beyond this wait
    await(() -> unchecked(() -> !placements().containsValue("")));
    assertThat(placements().values()).doesNotContain("");
    // one failed attempt each: the members were retried because of the event, not of a flush
    assertThat(failures())
        .extracting(e -> e.getInvolvedObject().getName() + " x" + e.getCount())
        .containsExactlyInAnyOrder("p1 x1", "p2 x1", "p3 x1");
  }

  static Stream<Arguments> bindFaults() {
    return Stream.of(
        Arguments.of(
            Named.<Consumer<Faults>>of(
                "the first binding answers 500",
                f -> f.failNext("create", "pods/binding", 1, 500))),
        Arguments.of(
            Named.<Consumer<Faults>>of(
                "the first binding takes effect but its response is lost",
                f -> f.loseNextResponses("create", "pods/binding", 1))));
  }

  /**
   * scheduler-plugins' race between Permit and binding: the gang is allowed whole, then one
   * member's binding fails while the others bind. The member is retried (its siblings bound count
   * for the group at its Permit): the group ends bound whole, never left short of minMember.
   */
  @ParameterizedTest
  @MethodSource("bindFaults")
  void aGangWhoseMemberFailsToBindEndsBoundWhole(Consumer<Faults> fault) throws Exception {
    node("n1", "2");
    node("n2", "2");
    podGroup("g", 3, null);
    for (String name : List.of("p1", "p2", "p3")) {
      pod(member(name, "g"));
    }
    fault.accept(server.faults());
    start();
    await(() -> unchecked(() -> !placements().containsValue("")));
    assertThat(server.faults().injected()).isEqualTo(1);
    assertThat(placements().values()).doesNotContain("");
    await(
        () -> unchecked(() -> status("g") != null && "Scheduled".equals(status("g").get("phase"))));
    assertThat(status("g")).containsEntry("scheduled", 3.0);
  }
}
