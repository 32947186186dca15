package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.Scheduler;
import io.kubesched.core.cluster.CoreEvent;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.core.time.SimulatedTime;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeExtenderServer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The scheduler with a configuration that lists HTTP extenders, end to end on an in-memory cluster
 * and simulated time, against a webhook on the loopback interface.
 */
final class ExtenderSchedulingTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.discover();

  private final SimulatedTime time = SimulatedTime.atEpoch();
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());
  private final FakeExtenderServer server;
  private final List<Scheduler> schedulers = new ArrayList<>();

  ExtenderSchedulingTest() throws Exception {
    server = new FakeExtenderServer();
  }

  @AfterEach
  void stop() {
    schedulers.forEach(Scheduler::close);
    server.close();
  }

  private Scheduler schedule(String extender) {
    String yaml =
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
            + "kind: KubeSchedulerConfiguration\n"
            + "extenders:\n"
            + "- urlPrefix: "
            + server.url()
            + "\n"
            + extender.indent(2);
    KubeSchedulerConfiguration cfg = ConfigurationLoader.parse(yaml, REGISTRY);
    Scheduler s =
        Scheduler.builder()
            .cluster(cluster)
            .configuration(cfg)
            .registry(REGISTRY)
            .simulatedTime(time)
            .build();
    schedulers.add(s);
    s.start();
    s.runUntilIdle();
    return s;
  }

  private static V1Node node(String name, String cpu) {
    return MakeNode.node()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .capacity("cpu", cpu, "memory", "8Gi", "pods", "110")
        .obj();
  }

  private String nodeOf(String name) {
    V1Pod p = cluster.getPod("default", name).orElseThrow();
    return p.getSpec().getNodeName();
  }

  private String failedScheduling(String pod) {
    List<CoreEvent> events = cluster.eventsFor("Pod", "default", pod);
    String message = null;
    for (CoreEvent e : events) {
      if (e.reason().equals("FailedScheduling")) {
        message = e.message();
      }
    }
    return message;
  }

  /** Answers a filter request by rejecting the nodes of {@code failed} and {@code unresolvable}. */
  private static FakeExtenderServer.Handler rejecting(
      Map<String, String> failed, Map<String, String> unresolvable) {
    return body -> {
      ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
      List<V1Node> keep = new ArrayList<>();
      for (V1Node n : args.nodes()) {
        String name = n.getMetadata().getName();
        if (!failed.containsKey(name) && !unresolvable.containsKey(name)) {
          keep.add(n);
        }
      }
      return FakeExtenderServer.Answer.ok(
          ExtenderWire.encode(new ExtenderWire.FilterResult(keep, null, failed, unresolvable, "")));
    };
  }

  static Stream<Arguments> rejections() {
    return Stream.of(
        argumentSet(
            "a node in FailedNodes is Unschedulable: preemption is tried there",
            Map.of("n1", "n1 is reserved by the extender"),
            Map.of(),
            "0/2 nodes are available: 1 Insufficient cpu, 1 n1 is reserved by the extender."
                + " preemption: 0/2 nodes are available: 2 No preemption victims found for"
                + " incoming pod."),
        argumentSet(
            "FailedAndUnresolvableNodes takes precedence over FailedNodes",
            Map.of("n1", "soft no"),
            Map.of("n1", "hard no"),
            "0/2 nodes are available: 1 Insufficient cpu, 1 hard no. preemption: 0/2 nodes are"
                + " available: 1 No preemption victims found for incoming pod, 1 Preemption is"
                + " not helpful for scheduling."));
  }

  @ParameterizedTest
  @MethodSource("rejections")
  void anExtenderRejectionReachesTheFailureMessage(
      Map<String, String> failed, Map<String, String> unresolvable, String message) {
    server.on("/filter", rejecting(failed, unresolvable));
    cluster.addNode(node("n1", "4"));
    cluster.addNode(node("n2", "1"));
    cluster.addPod(MakePod.pod().name("p").req("cpu", "2").obj());

    Scheduler s = schedule("filterVerb: filter");

    assertThat(nodeOf("p")).isNull();
    assertThat(failedScheduling("p")).isEqualTo(message);
    QueuedPodInfo qpi = s.queue().get("default", "p").orElseThrow();
    assertThat(qpi.unschedulablePlugins()).contains("Extender", "NodeResourcesFit");
    assertThat(server.requests()).extracting(FakeExtenderServer.Request::path).contains("/filter");
  }

  @Test
  void aPodFitsWhereTheExtenderAgrees() {
    server.on("/filter", rejecting(Map.of("n1", "n1 is reserved"), Map.of()));
    cluster.addNode(node("n1", "4"));
    cluster.addNode(node("n2", "4"));
    cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());

    schedule("filterVerb: filter");

    assertThat(nodeOf("p")).isEqualTo("n2");
  }

  static Stream<Arguments> favourites() {
    return Stream.of(
        argumentSet("the extender favours n1", "n1"), argumentSet("the extender favours n2", "n2"));
  }

  @ParameterizedTest
  @MethodSource("favourites")
  void aPrioritizerDecidesBetweenEqualNodes(String favourite) {
    server.on(
        "/prioritize",
        body -> {
          ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(body);
          List<ExtenderWire.HostPriority> out = new ArrayList<>();
          for (V1Node n : args.nodes()) {
            String name = n.getMetadata().getName();
            out.add(new ExtenderWire.HostPriority(name, name.equals(favourite) ? 10 : 0));
          }
          return FakeExtenderServer.Answer.ok(ExtenderWire.encodePriorities(out));
        });
    for (String n : List.of("n1", "n2", "n3")) {
      cluster.addNode(node(n, "4"));
    }
    cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());

    schedule("prioritizeVerb: prioritize\nweight: 2");

    assertThat(nodeOf("p")).isEqualTo(favourite);
  }

  @Test
  void anExtenderWhoseTlsFilesCannotBeReadStopsTheBuild() {
    String yaml =
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
            + "kind: KubeSchedulerConfiguration\n"
            + "extenders:\n"
            + "- urlPrefix: https://127.0.0.1:1\n"
            + "  filterVerb: filter\n"
            + "  tlsConfig: {caFile: /nonexistent/ca.pem}\n";
    KubeSchedulerConfiguration cfg = ConfigurationLoader.parse(yaml, REGISTRY);

    assertThatThrownBy(
            () ->
                Scheduler.builder()
                    .cluster(cluster)
                    .configuration(cfg)
                    .registry(REGISTRY)
                    .simulatedTime(time)
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "extenders[0]: tlsConfig.caFile: cannot read \"/nonexistent/ca.pem\"");
  }

  static Stream<Arguments> failures() {
    return Stream.of(
        argumentSet("a failing extender fails the pod", false, null),
        argumentSet("a failing ignorable extender is skipped", true, "n1"));
  }

  @ParameterizedTest
  @MethodSource("failures")
  void filterErrors(boolean ignorable, String node) {
    server.on("/filter", body -> new FakeExtenderServer.Answer(503, "unavailable"));
    cluster.addNode(node("n1", "4"));
    cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());

    schedule("filterVerb: filter\nignorable: " + ignorable);

    assertThat(nodeOf("p")).isEqualTo(node);
    if (node == null) {
      assertThat(failedScheduling("p"))
          .isEqualTo("failed filter with extender at URL " + server.url() + "/filter, code 503");
    }
  }

  @Test
  void aBinderExtenderBindsInsteadOfTheBindPlugins() {
    server.on(
        "/bind",
        body -> {
          ExtenderWire.BindingArgs args = ExtenderWire.decodeBindingArgs(body);
          V1Pod pod = cluster.getPod(args.podNamespace(), args.podName()).orElseThrow();
          cluster.bind(pod, args.node());
          return FakeExtenderServer.Answer.ok(ExtenderWire.encodeBindingResult(""));
        });
    cluster.addNode(node("n1", "4"));
    cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());

    schedule("bindVerb: bind");

    assertThat(nodeOf("p")).isEqualTo("n1");
    assertThat(server.requests())
        .extracting(FakeExtenderServer.Request::body)
        .containsExactly(
            "{\"PodName\":\"p\",\"PodNamespace\":\"default\",\"PodUID\":\"default/p\","
                + "\"Node\":\"n1\"}");
  }

  static Stream<Arguments> bindFailures() {
    return Stream.of(
        argumentSet("a failing binder extender fails the binding cycle", false, null),
        argumentSet(
            "a failing ignorable binder extender leaves the binding to the Bind plugins",
            true,
            "n1"));
  }

  @ParameterizedTest
  @MethodSource("bindFailures")
  void bindErrors(boolean ignorable, String node) {
    server.answer("/bind", "{\"Error\":\"cannot bind now\"}");
    cluster.addNode(node("n1", "4"));
    cluster.addPod(MakePod.pod().name("p").req("cpu", "1").obj());

    schedule("bindVerb: bind\nignorable: " + ignorable);

    assertThat(nodeOf("p")).isEqualTo(node);
    assertThat(server.requests()).isNotEmpty();
    if (node == null) {
      assertThat(failedScheduling("p")).isEqualTo("cannot bind now");
    }
  }

  @Test
  void aPreemptExtenderChoosesTheVictims() {
    List<String> proposed = new ArrayList<>();
    // the extender swaps the victim the dry run proposed for the other low-priority pod
    server.on(
        "/preempt",
        body -> {
          ExtenderWire.PreemptionArgs sent = ExtenderWire.decodePreemptionArgs(body);
          assertThat(sent.nodeNameToMetaVictims()).isNull();
          for (V1Pod v : sent.nodeNameToVictims().get("n1").pods()) {
            proposed.add(v.getMetadata().getName());
          }
          String other = proposed.contains("low-a") ? "default/low-b" : "default/low-a";
          Map<String, ExtenderWire.MetaVictims> answer = new LinkedHashMap<>();
          answer.put("n1", new ExtenderWire.MetaVictims(List.of(other), 0));
          return FakeExtenderServer.Answer.ok(ExtenderWire.encodePreemptionResult(answer));
        });
    cluster.addNode(node("n1", "4"));
    cluster.addPod(MakePod.pod().name("low-a").priority(1).req("cpu", "2").node("n1").obj());
    cluster.addPod(MakePod.pod().name("low-b").priority(1).req("cpu", "2").node("n1").obj());
    cluster.addPod(MakePod.pod().name("high").priority(100).req("cpu", "2").obj());

    schedule("preemptVerb: preempt");

    assertThat(proposed).hasSize(1);
    String kept = proposed.get(0);
    String evicted = kept.equals("low-a") ? "low-b" : "low-a";
    assertThat(cluster.getPod("default", evicted)).isEmpty();
    assertThat(cluster.getPod("default", kept)).isPresent();
    assertThat(nodeOf("high")).isEqualTo("n1");
  }

  @Test
  void aPreemptExtenderCanRefuseEveryCandidate() {
    server.answer("/preempt", "{\"NodeNameToMetaVictims\":{}}");
    cluster.addNode(node("n1", "4"));
    cluster.addPod(MakePod.pod().name("low").priority(1).req("cpu", "4").node("n1").obj());
    cluster.addPod(MakePod.pod().name("high").priority(100).req("cpu", "2").obj());

    schedule("preemptVerb: preempt");

    assertThat(cluster.getPod("default", "low")).isPresent();
    assertThat(nodeOf("high")).isNull();
    assertThat(failedScheduling("high")).contains("no candidate node for preemption");
  }
}
