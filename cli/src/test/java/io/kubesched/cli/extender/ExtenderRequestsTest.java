package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.extender.ExtenderWire;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ExtenderServer} over raw HTTP: malformed requests, the keys kube sends, /preempt, health
 * and metrics.
 */
final class ExtenderRequestsTest {
  private static final PluginRegistry REGISTRY = PluginRegistry.discover();
  private static final String POD =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"p-uid\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\"}}}]}}";

  private final AtomicBoolean ready = new AtomicBoolean(true);
  private ExtenderServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private static V1Node node(String name, String cpu) {
    return MakeNode.node()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .capacity("cpu", cpu, "memory", "8Gi", "pods", "110")
        .obj();
  }

  private static V1Pod running(String name, String cpu, String node, int priority) {
    return MakePod.pod()
        .name(name)
        .uid(name + "-uid")
        .priority(priority)
        .req("cpu", cpu)
        .node(node)
        .obj();
  }

  /**
   * Four 4-CPU nodes: {@code a} runs a 3-CPU pod; {@code b} is empty; {@code c} runs 3 CPUs and 1
   * CPU; {@code d} runs 4 CPUs.
   */
  private ExtenderServer start(boolean withState) throws Exception {
    InMemoryCluster cluster = new InMemoryCluster();
    if (withState) {
      for (String n : List.of("a", "b", "c", "d")) {
        cluster.addNode(node(n, "4"));
      }
      cluster.addPod(running("a-big", "3", "a", 1));
      cluster.addPod(running("c-big", "3", "c", 1));
      cluster.addPod(running("c-small", "1", "c", 1));
      cluster.addPod(running("d-all", "4", "d", 1));
    }
    server =
        new ExtenderServer(
            ConfigurationLoader.parse(
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
                REGISTRY),
            REGISTRY,
            null,
            cluster,
            withState,
            FeatureGates.defaults(),
            ExtenderServer.Settings.defaults().withReady(ready::get));
    server.start(new InetSocketAddress("127.0.0.1", 0));
    return server;
  }

  private String post(String path, String body) throws Exception {
    try (RawHttp c = new RawHttp(server.address())) {
      return RawHttp.statusAndBody(c.send(RawHttp.post(path, body)).readToEnd());
    }
  }

  private String get(String path) throws Exception {
    try (RawHttp c = new RawHttp(server.address())) {
      return RawHttp.statusAndBody(
          c.send("GET " + path + " HTTP/1.1\r\nConnection: close\r\n\r\n").readToEnd());
    }
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        argumentSet("not JSON", "/filter", "{\"Pod\":", "400 invalid request: invalid JSON: "),
        argumentSet(
            "an empty body",
            "/filter",
            "",
            "400 invalid request: cannot unmarshal null into Go" + " value of type ExtenderArgs\n"),
        argumentSet(
            "a pod that is an array",
            "/filter",
            "{\"Pod\":[]}",
            "400 invalid request: cannot unmarshal array into Go value of type Pod\n"),
        argumentSet(
            "no pod",
            "/filter",
            "{\"NodeNames\":[\"a\"]}",
            "400 invalid request: Pod:" + " Required value\n"),
        argumentSet(
            "a pod without metadata",
            "/prioritize",
            "{\"Pod\":{\"spec\":{}},\"NodeNames\":[\"a\"]}",
            "400 invalid request: Pod.metadata.name: Required value\n"),
        argumentSet(
            "a pod without spec",
            "/filter",
            "{\"Pod\":{\"metadata\":{\"name\":\"p\"}},\"NodeNames\":[\"a\"]}",
            "400 invalid request: Pod.spec: Required value\n"),
        argumentSet(
            "a node without metadata",
            "/filter",
            "{\"Pod\":" + POD + ",\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"a\"}},{}]}}",
            "400 invalid request: Nodes.items[1].metadata.name: Required value\n"),
        argumentSet(
            "a node listed twice",
            "/prioritize",
            "{\"Pod\":"
                + POD
                + ",\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"a\"}},"
                + "{\"metadata\":{\"name\":\"a\"}}]}}",
            "400 invalid request: Nodes.items[1].metadata.name: Duplicate value: \"a\"\n"),
        argumentSet(
            "nodes that are not a list",
            "/filter",
            "{\"Pod\":" + POD + ",\"Nodes\":{\"items\":{}}}",
            "400 invalid request: cannot unmarshal object into Go struct field Nodes.items\n"),
        argumentSet(
            "an empty node name",
            "/filter",
            "{\"Pod\":" + POD + ",\"NodeNames\":[\"\"]}",
            "400 invalid request: NodeNames[0]: Required value\n"),
        argumentSet(
            "a node name that is a number",
            "/filter",
            "{\"Pod\":" + POD + ",\"NodeNames\":[3]}",
            "400 invalid request: cannot unmarshal number into Go struct field NodeNames of type"
                + " string\n"),
        argumentSet(
            "a binding without a pod name",
            "/bind",
            "{\"PodNamespace\":\"default\",\"Node\":\"a\"}",
            "400 invalid request: PodName: Required value\n"),
        argumentSet(
            "a binding without a node",
            "/bind",
            "{\"PodName\":\"p\"}",
            "400 invalid request: Node: Required value\n"),
        argumentSet(
            "a victim without metadata",
            "/preempt",
            "{\"Pod\":" + POD + ",\"NodeNameToVictims\":{\"a\":{\"Pods\":[{}]}}}",
            "400 invalid request: NodeNameToVictims.a.Pods[0].metadata: Required value\n"),
        argumentSet(
            "victims that are not an object",
            "/preempt",
            "{\"Pod\":" + POD + ",\"NodeNameToMetaVictims\":{\"a\":[]}}",
            "400 invalid request: cannot unmarshal array into Go value of type"
                + " NodeNameToMetaVictims.a\n"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedRequestsAreBadRequestsNamingTheField(String path, String body, String want)
      throws Exception {
    start(true);

    String got = post(path, body);

    if (want.endsWith("\n")) {
      assertThat(got).isEqualTo(want);
    } else {
      assertThat(got).startsWith(want);
    }
  }

  static Stream<Arguments> keys() {
    return Stream.of(
        argumentSet("PascalCase, as kube-scheduler sends", "Pod", "NodeNames"),
        argumentSet("lower-case", "pod", "nodenames"),
        argumentSet("camelCase", "pod", "nodeNames"));
  }

  @ParameterizedTest
  @MethodSource("keys")
  void keysAreMatchedWithoutCase(String pod, String nodeNames) throws Exception {
    start(true);

    String got =
        post("/filter", "{\"" + pod + "\":" + POD + ",\"" + nodeNames + "\":[\"a\",\"b\"]}");

    assertThat(got)
        .isEqualTo(
            "200 {\"Nodes\":null,\"NodeNames\":[\"b\"],\"FailedNodes\":{\"a\":\"Insufficient"
                + " cpu\"},\"FailedAndUnresolvableNodes\":{},\"Error\":\"\"}");
  }

  private static String metaVictims(Map<String, List<String>> victims) {
    Map<String, ExtenderWire.MetaVictims> m = new LinkedHashMap<>();
    victims.forEach((n, uids) -> m.put(n, new ExtenderWire.MetaVictims(uids, 0)));
    return m.isEmpty() ? "{}" : ExtenderWire.encodePreemptionResult(m);
  }

  static Stream<Arguments> preemptions() {
    Map<String, List<String>> proposed = new LinkedHashMap<>();
    proposed.put("a", List.of("a-big-uid"));
    proposed.put("b", List.of());
    proposed.put("c", List.of("c-small-uid"));
    proposed.put("d", List.of("d-all-uid"));
    proposed.put("e", List.of());
    Map<String, List<String>> kept = new LinkedHashMap<>();
    kept.put("a", List.of("a-big-uid"));
    kept.put("b", List.of());
    kept.put("d", List.of("d-all-uid"));
    Map<String, List<String>> wrongVictim = new LinkedHashMap<>();
    wrongVictim.put("a", List.of("c-big-uid"));
    return Stream.of(
        argumentSet(
            "nodes where the victims make room are kept; c (1 CPU freed of 4) and the unknown e"
                + " are dropped",
            proposed,
            kept),
        argumentSet("a victim that is not on its node drops the node", wrongVictim, Map.of()));
  }

  @ParameterizedTest
  @MethodSource("preemptions")
  void preemptKeepsTheCandidatesWhereThePodFitsWithoutItsVictims(
      Map<String, List<String>> proposed, Map<String, List<String>> kept) throws Exception {
    start(true);
    Map<String, ExtenderWire.MetaVictims> meta = new LinkedHashMap<>();
    proposed.forEach((n, uids) -> meta.put(n, new ExtenderWire.MetaVictims(uids, 0)));
    V1Pod pod = MakePod.pod().name("p").uid("p-uid").priority(100).req("cpu", "2").obj();

    String got =
        post("/preempt", ExtenderWire.encode(new ExtenderWire.PreemptionArgs(pod, null, meta)));

    assertThat(got)
        .isEqualTo(
            "200 " + (kept.isEmpty() ? "{\"NodeNameToMetaVictims\":{}}" : metaVictims(kept)));
  }

  @Test
  void preemptTakesWholeVictimsFromNonCacheCapableSchedulers() throws Exception {
    start(true);
    V1Pod pod = MakePod.pod().name("p").uid("p-uid").priority(100).req("cpu", "2").obj();
    Map<String, ExtenderWire.Victims> victims = new LinkedHashMap<>();
    victims.put("a", new ExtenderWire.Victims(List.of(running("a-big", "3", "a", 1)), 1));
    victims.put("c", new ExtenderWire.Victims(List.of(running("c-small", "1", "c", 1)), 0));

    String got =
        post("/preempt", ExtenderWire.encode(new ExtenderWire.PreemptionArgs(pod, victims, null)));

    assertThat(got)
        .isEqualTo(
            "200 {\"NodeNameToMetaVictims\":{\"a\":{\"Pods\":[{\"UID\":\"a-big-uid\"}],"
                + "\"NumPDBViolations\":1}}}");
  }

  @Test
  void preemptWithoutAClusterStateIsRefused() throws Exception {
    start(false);
    Map<String, ExtenderWire.MetaVictims> meta =
        Map.of("a", new ExtenderWire.MetaVictims(List.of("x"), 0));

    String got =
        post(
            "/preempt",
            ExtenderWire.encode(
                new ExtenderWire.PreemptionArgs(MakePod.pod().name("p").obj(), null, meta)));

    assertThat(got)
        .isEqualTo(
            "400 invalid request: kubesched extender knows no nodes to check preemption on:"
                + " start it with --kubeconfig or --state\n");
  }

  @Test
  void healthReadinessAndMetrics() throws Exception {
    start(true);
    ready.set(false);

    String notReady = get("/readyz");
    String filterNotReady = post("/filter", "{}");
    String healthy = get("/healthz");
    ready.set(true);
    String readyNow = get("/readyz");
    String filtered = post("/filter", "{\"Pod\":" + POD + ",\"NodeNames\":[\"b\"]}");
    String metrics = get("/metrics");

    assertThat(notReady).isEqualTo("503 the cluster state is not synced yet\n");
    assertThat(filterNotReady).isEqualTo("503 the cluster state is not synced yet\n");
    assertThat(healthy).isEqualTo("200 ok");
    assertThat(readyNow).isEqualTo("200 ok");
    assertThat(filtered).startsWith("200 {\"Nodes\":null,\"NodeNames\":[\"b\"]");
    assertThat(metrics)
        .startsWith("200 ")
        .contains("# TYPE kubesched_extender_requests_total counter")
        .contains("kubesched_extender_requests_total{code=\"503\",verb=\"filter\"} 1.0")
        .contains("kubesched_extender_requests_total{code=\"200\",verb=\"filter\"} 1.0")
        .contains("kubesched_extender_requests_total{code=\"503\",verb=\"readyz\"} 1.0")
        .contains("kubesched_extender_request_duration_seconds_count{verb=\"filter\"} 2");
  }
}
