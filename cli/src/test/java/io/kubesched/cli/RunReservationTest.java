package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.AppsV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import io.kubesched.cli.RunKubeFlagsTest.Running;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ResourceReservation controller under {@code kubesched run}: nodes n1 and n2 (4 CPUs each), a
 * ReplicaSet {@code web} with 2 replicas of 3 CPUs, {@code web-a} on n1 and {@code web-b} on n2.
 */
final class RunReservationTest {
  private static final String RESERVED =
      "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had resources reserved for other"
          + " pods. preemption: 0/2 nodes are available: 2 No preemption victims found for"
          + " incoming pod.";

  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final AppsV1Api apps = new AppsV1Api(client);
  @TempDir Path dir;
  private Running run;
  private String rsUid;

  @AfterEach
  void close() throws Exception {
    if (run != null) {
      assertThat(run.stop()).as("stderr: %s", run.err()).isZero();
    }
    server.close();
  }

  /** Creates the cluster and starts {@code kubesched run} with a TTL of {@code ttl} seconds. */
  private void start(int ttl) throws Exception {
    for (String n : List.of("n1", "n2")) {
      core.createNode(
              MakeNode.node()
                  .name(n)
                  .label("kubernetes.io/hostname", n)
                  .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
                  .obj())
          .execute();
    }
    V1ReplicaSet rs =
        apps.createNamespacedReplicaSet(
                "default",
                new V1ReplicaSet()
                    .apiVersion("apps/v1")
                    .kind("ReplicaSet")
                    .metadata(new V1ObjectMeta().name("web").namespace("default"))
                    .spec(
                        new V1ReplicaSetSpec()
                            .replicas(2)
                            .selector(new V1LabelSelector().matchLabels(Map.of("app", "web")))
                            .template(
                                new V1PodTemplateSpec()
                                    .metadata(new V1ObjectMeta().labels(Map.of("app", "web"))))))
            .execute();
    rsUid = rs.getMetadata().getUid();
    assertThat(rsUid).isNotBlank();
    pod(web("web-a").node("n1"));
    pod(web("web-b").node("n2"));
    Path config =
        Files.writeString(
            dir.resolve("reservation.yaml"),
            Files.readString(Path.of("../examples/configs/reservation.yaml"))
                .replace("reservationTTLSeconds: 300", "reservationTTLSeconds: " + ttl));
    run =
        Running.start(
            "--config",
            config.toString(),
            "--kubeconfig",
            RunKubeFlagsTest.kubeconfig(dir, server.url()).toString(),
            "--leader-elect=false",
            "--metrics-port=0");
  }

  private static MakePod web(String name) {
    return MakePod.pod().name(name).label("app", "web").container("pause").req("cpu", "3");
  }

  private void pod(MakePod p) throws Exception {
    V1Pod pod = p.obj();
    if ("web".equals(pod.getMetadata().getLabels().get("app"))) {
      pod.getMetadata()
          .setOwnerReferences(
              List.of(
                  new V1OwnerReference()
                      .apiVersion("apps/v1")
                      .kind("ReplicaSet")
                      .name("web")
                      .uid(rsUid)
                      .controller(true)));
    }
    core.createNamespacedPod("default", pod).execute();
  }

  private void delete(String name) throws Exception {
    core.deleteNamespacedPod(name, "default").execute();
  }

  private Map<String, String> reservations(String node) throws Exception {
    Map<String, String> a = core.readNode(node).execute().getMetadata().getAnnotations();
    Map<String, String> out = new TreeMap<>();
    if (a != null) {
      a.forEach(
          (k, v) -> {
            if (k.startsWith("reserve.")) {
              out.put(k.substring(0, k.indexOf('/')), v);
            }
          });
    }
    return out;
  }

  private String nodeOf(String pod) throws Exception {
    String n = core.readNamespacedPod(pod, "default").execute().getSpec().getNodeName();
    return n == null ? "" : n;
  }

  private List<String> failures(String pod) throws Exception {
    return core.listNamespacedEvent("default").execute().getItems().stream()
        .filter(e -> "FailedScheduling".equals(e.getReason()))
        .filter(e -> pod.equals(e.getInvolvedObject().getName()))
        .map(CoreV1Event::getMessage)
        .distinct()
        .toList();
  }

  private static void await(Callable<Boolean> condition) throws Exception {
    BooleanSupplier s =
        () -> {
          try {
            return condition.call();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    for (int i = 0; i < 600 && !s.getAsBoolean(); i++) {
      TimeUnit.MILLISECONDS.sleep(25);
    }
  }

  /** The reservation the controller writes for web-a (annotation kinds, values). */
  private Map<String, String> reservedForWebA() {
    return Map.of(
        "reserve.controller", "ReplicaSet/" + rsUid,
        "reserve.cpu", "3",
        "reserve.owner", "default/web-a");
  }

  private Map<String, String> withoutExpiry(Map<String, String> m) {
    Map<String, String> out = new TreeMap<>(m);
    assertThat(out.remove("reserve.expires")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    return out;
  }

  @Test
  void theReplacementGetsItsPlaceBackAndOthersDoNotTakeIt() throws Exception {
    start(300);
    delete("web-a");
    await(() -> !reservations("n1").isEmpty());
    assertThat(withoutExpiry(reservations("n1"))).isEqualTo(reservedForWebA());
    pod(MakePod.pod().name("intruder").container("pause").req("cpu", "2"));
    await(() -> !failures("intruder").isEmpty());
    assertThat(failures("intruder")).containsExactly(RESERVED);
    assertThat(nodeOf("intruder")).isEmpty();

    pod(web("web-c"));
    await(() -> !nodeOf("web-c").isEmpty() && reservations("n1").isEmpty());
    assertThat(nodeOf("web-c")).isEqualTo("n1");
    assertThat(reservations("n1")).isEmpty();
    assertThat(nodeOf("intruder")).isEmpty();
  }

  @Test
  void anExpiredReservationIsRemovedAndNoLongerHoldsTheNode() throws Exception {
    // long enough that a loaded machine still sees the reservation before it expires
    start(4);
    delete("web-a");
    // the reservation as first seen: it may expire (on the next cluster event) before a re-read
    List<Map<String, String>> seen = new ArrayList<>();
    await(
        () -> {
          Map<String, String> r = reservations("n1");
          if (!r.isEmpty()) {
            seen.add(r);
          }
          return !r.isEmpty();
        });
    assertThat(withoutExpiry(seen.get(0))).isEqualTo(reservedForWebA());
    pod(MakePod.pod().name("intruder").container("pause").req("cpu", "2"));
    // expiry is checked on cluster events: each poll adds a pod no profile schedules
    int[] tick = {0};
    await(
        () -> {
          pod(MakePod.pod().name("tick-" + tick[0]++).schedulerName("nobody"));
          return "n1".equals(nodeOf("intruder"));
        });
    assertThat(nodeOf("intruder")).isEqualTo("n1");
    assertThat(reservations("n1")).isEmpty();
  }

  @Test
  void aReservationWhoseOwnerIsGoneIsRemoved() throws Exception {
    start(300);
    delete("web-a");
    await(() -> !reservations("n1").isEmpty());
    assertThat(withoutExpiry(reservations("n1"))).isEqualTo(reservedForWebA());
    apps.deleteNamespacedReplicaSet("web", "default").execute();
    // the garbage collector deletes the owner's pods; each poll adds a pod no profile schedules
    delete("web-b");
    int[] tick = {0};
    await(
        () -> {
          pod(MakePod.pod().name("tick-" + tick[0]++).schedulerName("nobody"));
          return reservations("n1").isEmpty() && reservations("n2").isEmpty();
        });
    assertThat(reservations("n1")).isEmpty();
    assertThat(reservations("n2")).isEmpty();
  }

  @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"kubesched.yaml", "kube-scheduler-reservation-rbac.yaml"})
  @SuppressWarnings("unchecked")
  void theInstallManifestsLetTheControllerPatchNodes(String file) throws Exception {
    boolean allowed = false;
    for (Object doc :
        new org.yaml.snakeyaml.Yaml()
            .loadAll(Files.readString(Path.of("../examples/kubernetes", file)))) {
      Map<String, Object> m = (Map<String, Object>) doc;
      if (!"ClusterRole".equals(m.get("kind"))) {
        continue;
      }
      for (Map<String, Object> rule : (List<Map<String, Object>>) m.get("rules")) {
        allowed |=
            ((List<String>) rule.get("apiGroups")).contains("")
                && ((List<String>) rule.get("resources")).contains("nodes")
                && ((List<String>) rule.get("verbs")).contains("patch");
      }
    }
    assertThat(allowed).as("a ClusterRole of %s allows patching nodes", file).isTrue();
  }
}
