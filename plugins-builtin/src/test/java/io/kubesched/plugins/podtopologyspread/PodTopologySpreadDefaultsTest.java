package io.kubesched.plugins.podtopologyspread;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1ReplicationControllerSpec;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServiceSpec;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StatefulSetSpec;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.Status;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Default constraints of PodTopologySpread (System and List defaulting with selectors deduced
 * from Services and controllers), ported from kube's TestPreScoreStateEmptyNodes,
 * TestPreScoreSkip and helper/spread_test.go.
 */
final class PodTopologySpreadDefaultsTest {
  static final String HOST = PodTopologySpread.LABEL_HOSTNAME;
  static final String ZONE = PodTopologySpread.LABEL_ZONE;

  /** A comparable rendering of a PreScore state. */
  record Rendered(
      List<String> constraints,
      List<String> ignored,
      List<Map<String, Integer>> counts,
      List<Double> weights) {}

  static Rendered render(PreScoreState s) {
    List<String> cs = new ArrayList<>();
    List<Map<String, Integer>> counts = new ArrayList<>();
    List<Double> weights = new ArrayList<>();
    for (int i = 0; i < s.constraints.length; i++) {
      SpreadConstraint c = s.constraints[i];
      cs.add(c.topologyKey() + "/" + c.maxSkew() + "/" + c.selector());
      Map<String, Integer> m = new TreeMap<>();
      if (!s.hostname[i]) {
        for (int slot = 0; slot < s.counts[i].capacity(); slot++) {
          if (s.counts[i].keyAt(slot) != null) {
            m.put(s.counts[i].keyAt(slot), s.counts[i].valueAt(slot));
          }
        }
      }
      counts.add(m);
      weights.add(s.weights[i]);
    }
    return new Rendered(cs, new ArrayList<>(new TreeSet<>(s.ignoredNodes)), counts, weights);
  }

  static double w(int size) {
    return Math.log(size + 2);
  }

  static V1LabelSelector exists(String key) {
    return new V1LabelSelector()
        .addMatchExpressionsItem(new V1LabelSelectorRequirement().key(key).operator("Exists"));
  }

  static V1ReplicaSet rs(String name, V1LabelSelector selector) {
    return new V1ReplicaSet()
        .metadata(new V1ObjectMeta().name(name).namespace("default"))
        .spec(new V1ReplicaSetSpec().selector(selector));
  }

  static V1Node node(String name, String... labels) {
    MakeNode n = MakeNode.node().name(name);
    for (int i = 0; i < labels.length; i += 2) {
      n.label(labels[i], labels[i + 1]);
    }
    return n.obj();
  }

  static V1TopologySpreadConstraint constraint(int maxSkew, String key, String when) {
    return new V1TopologySpreadConstraint().maxSkew(maxSkew).topologyKey(key)
        .whenUnsatisfiable(when);
  }

  static Stream<Arguments> preScoreCases() {
    return Stream.of(
        Arguments.argumentSet(
            "system default constraints and a replicaset",
            MakePod.pod().name("p").label("foo", "tar").label("baz", "sup")
                .ownerReference("ReplicaSet", "rs1").obj(),
            PodTopologySpreadArgs.defaults(),
            List.of(
                node("node-a", HOST, "node-a", ZONE, "mars"),
                node("node-b", HOST, "node-b", ZONE, "mars"),
                node("node-c", HOST, "node-c"),
                node("node-d", HOST, "node-d")),
            rs("rs1", exists("foo")),
            new Rendered(
                List.of(HOST + "/3/foo", ZONE + "/5/foo"),
                List.of(),
                List.of(Map.of(), Map.of("mars", 0, "", 0)),
                List.of(w(4), w(2)))),
        Arguments.argumentSet(
            "default constraints and a replicaset",
            MakePod.pod().name("p").label("foo", "tar").label("baz", "sup")
                .ownerReference("ReplicaSet", "rs1").obj(),
            new PodTopologySpreadArgs(
                List.of(
                    constraint(1, HOST, "ScheduleAnyway"),
                    constraint(2, "rack", "DoNotSchedule"),
                    constraint(2, "planet", "ScheduleAnyway")),
                "List"),
            List.of(node("node-a", "rack", "rack1", HOST, "node-a", "planet", "mars")),
            rs("rs1", exists("foo")),
            new Rendered(
                List.of(HOST + "/1/foo", "planet/2/foo"),
                List.of(),
                List.of(Map.of(), Map.of("mars", 0)),
                List.of(w(1), w(1)))),
        Arguments.argumentSet(
            "default constraints and a replicaset, but pod has constraints",
            MakePod.pod().name("p").label("foo", "bar").label("baz", "sup")
                .ownerReference("ReplicaSet", "rs1")
                .spreadConstraint(s -> s.maxSkew(1).topologyKey("zone").selectorExists("bar"))
                .spreadConstraint(
                    s -> s.maxSkew(2).topologyKey("planet").whenUnsatisfiable("ScheduleAnyway")
                        .selector(new V1LabelSelector().putMatchLabelsItem("baz", "sup")))
                .obj(),
            new PodTopologySpreadArgs(List.of(constraint(2, "galaxy", "ScheduleAnyway")), "List"),
            List.of(node("node-a", "planet", "mars", "galaxy", "andromeda")),
            rs("rs1", exists("foo")),
            new Rendered(
                List.of("planet/2/baz=sup"),
                List.of(),
                List.of(Map.of("mars", 0)),
                List.of(w(1)))));
  }

  @ParameterizedTest
  @MethodSource("preScoreCases")
  void preScoreState(
      V1Pod pod, PodTopologySpreadArgs args, List<V1Node> nodes, V1ReplicaSet rs, Rendered want) {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.create(rs);
    FakeHandle handle = FakeHandle.of(nodes, List.of(), cluster);
    PodTopologySpread plugin = new PodTopologySpread(args, handle);
    CycleState state = new CycleState();

    assertThat(plugin.preScore(state, PodInfo.of(pod), handle.nodes()))
        .isEqualTo(Status.success());
    assertThat(render(state.get(PodTopologySpread.PRE_SCORE_KEY))).isEqualTo(want);
  }

  @Test
  void preScoreSkipsAPodWithoutSoftConstraints() {
    FakeHandle handle =
        FakeHandle.of(List.of(node("node-a", HOST, "node-a"), node("node-b", HOST, "node-b")),
            List.of());
    PodTopologySpread plugin =
        new PodTopologySpread(new PodTopologySpreadArgs(List.of(), "List"), handle);

    assertThat(plugin.preScore(new CycleState(), MakePod.pod().name("p").info(), handle.nodes()))
        .isEqualTo(Status.skip());
  }

  @Test
  void preScoreSkipsWhenTheOwningReplicaSetDoesNotExist() {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.create(rs("rs1", exists("tar")));
    FakeHandle handle = FakeHandle.of(List.of(node("node-a", "planet", "mars")), List.of(), cluster);
    PodTopologySpread plugin =
        new PodTopologySpread(
            new PodTopologySpreadArgs(List.of(constraint(2, "planet", "ScheduleAnyway")), "List"),
            handle);
    PodInfo pod =
        MakePod.pod().name("p").label("foo", "bar").label("baz", "sup")
            .ownerReference("ReplicaSet", "rs2").info();

    assertThat(plugin.preScore(new CycleState(), pod, handle.nodes())).isEqualTo(Status.skip());
  }

  @Test
  void systemDefaultingScoresANodeWithoutZoneByHostnameOnly() {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.create(
        new V1Service().metadata(new V1ObjectMeta().name("svc").namespace("default"))
            .spec(new V1ServiceSpec().selector(Map.of("app", "web"))));
    FakeHandle handle =
        FakeHandle.of(
            List.of(node("node-a", HOST, "node-a", ZONE, "z1"), node("node-b", HOST, "node-b")),
            List.of(MakePod.pod().name("e1").node("node-a").label("app", "web").obj()),
            cluster);
    PodTopologySpread plugin = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);
    PodInfo pod = MakePod.pod().name("p").label("app", "web").info();
    CycleState state = new CycleState();

    assertThat(plugin.preScore(state, pod, handle.nodes())).isEqualTo(Status.success());
    // Both weights are ln(2+2): two feasible hosts, and zones {"z1", ""} (a missing zone label
    // is a domain of its own when system-defaulted). node-a: 1*1.386+2 + 1*1.386+4 = 8.77 -> 9;
    // node-b has no zone label, so only its hostname term counts: 0*1.386+2 = 2.
    assertThat(plugin.score(state, pod, handle.node("node-a"))).isEqualTo(9);
    assertThat(plugin.score(state, pod, handle.node("node-b"))).isEqualTo(2);
  }

  @Test
  void listDefaultHardConstraintFiltersWithTheServiceSelector() {
    InMemoryCluster cluster = new InMemoryCluster();
    cluster.create(
        new V1Service().metadata(new V1ObjectMeta().name("svc").namespace("default"))
            .spec(new V1ServiceSpec().selector(Map.of("app", "web"))));
    FakeHandle handle =
        FakeHandle.of(
            List.of(node("node-a", "zone", "z1"), node("node-b", "zone", "z2")),
            List.of(
                MakePod.pod().name("e1").node("node-a").label("app", "web").obj(),
                MakePod.pod().name("e2").node("node-b").label("app", "db").obj()),
            cluster);
    PodTopologySpread plugin =
        new PodTopologySpread(
            new PodTopologySpreadArgs(List.of(constraint(1, "zone", "DoNotSchedule")), "List"),
            handle);
    PodInfo pod = MakePod.pod().name("p").label("app", "web").info();
    CycleState state = new CycleState();

    assertThat(plugin.preFilter(state, pod, handle.nodes())).isEqualTo(PreFilterResult.success());
    Map<String, Status> got = new LinkedHashMap<>();
    for (NodeInfo n : handle.nodes()) {
      got.put(n.name(), plugin.filter(state, pod, n));
    }
    assertThat(got)
        .containsExactly(
            Map.entry(
                "node-a", Status.unschedulable(PodTopologySpread.REASON_CONSTRAINTS_NOT_MATCH)),
            Map.entry("node-b", Status.success()));
  }

  @Test
  void systemDefaultingWithoutAnySelectingObjectSkipsScoring() {
    FakeHandle handle = FakeHandle.of(List.of(node("node-a", HOST, "node-a")), List.of());
    PodTopologySpread plugin = new PodTopologySpread(PodTopologySpreadArgs.defaults(), handle);

    assertThat(
            plugin.preScore(
                new CycleState(), MakePod.pod().name("p").label("a", "b").info(), handle.nodes()))
        .isEqualTo(Status.skip());
    assertThat(
            plugin.preFilter(
                new CycleState(), MakePod.pod().name("p").label("a", "b").info(), handle.nodes()))
        .isEqualTo(PreFilterResult.skip());
  }

  // ---------------------------------------------------------------- DefaultSelector

  static Stream<Arguments> selectorCases() {
    V1Service fooService =
        new V1Service().metadata(new V1ObjectMeta().name("s1").namespace("default"))
            .spec(new V1ServiceSpec().selector(Map.of("foo", "bar")));
    V1Service otherService =
        new V1Service().metadata(new V1ObjectMeta().name("s2").namespace("default"))
            .spec(new V1ServiceSpec().selector(Map.of("other", "x")));
    V1Service nilSelectorService =
        new V1Service().metadata(new V1ObjectMeta().name("s3").namespace("default"))
            .spec(new V1ServiceSpec());
    V1Service otherNamespace =
        new V1Service().metadata(new V1ObjectMeta().name("s4").namespace("ns1"))
            .spec(new V1ServiceSpec().selector(Map.of("foo", "bar")));
    V1ReplicationController rc =
        new V1ReplicationController().metadata(new V1ObjectMeta().name("rc1").namespace("default"))
            .spec(new V1ReplicationControllerSpec().selector(Map.of("baz", "blah")));
    V1StatefulSet ss =
        new V1StatefulSet().metadata(new V1ObjectMeta().name("ss1").namespace("default"))
            .spec(new V1StatefulSetSpec().selector(exists("baz")));
    MakePod labelled = MakePod.pod().name("p").label("foo", "bar").label("baz", "blah");
    return Stream.of(
        Arguments.argumentSet("no objects: everything (no constraints)",
            MakePod.pod().name("p").label("foo", "bar").obj(), List.of(), ""),
        Arguments.argumentSet("a matching service",
            MakePod.pod().name("p").label("foo", "bar").obj(), List.of(fooService), "foo=bar"),
        Arguments.argumentSet("services that don't select the pod or have no selector",
            MakePod.pod().name("p").label("foo", "bar").obj(),
            List.of(otherService, nilSelectorService, otherNamespace), ""),
        Arguments.argumentSet("service and owning replication controller",
            MakePod.pod().name("p").label("foo", "bar").label("baz", "blah")
                .ownerReference("ReplicationController", "rc1").obj(),
            List.of(fooService, rc), "baz=blah,foo=bar"),
        Arguments.argumentSet("service and owning replica set",
            MakePod.pod().name("p").label("foo", "bar").label("baz", "blah")
                .ownerReference("ReplicaSet", "rs1").obj(),
            List.of(fooService, rs("rs1", exists("baz"))), "baz,foo=bar"),
        Arguments.argumentSet("service and owning stateful set",
            labelled.ownerReference("StatefulSet", "ss1").obj(),
            List.of(fooService, ss), "baz,foo=bar"),
        Arguments.argumentSet("owner of an unsupported kind only uses services",
            MakePod.pod().name("p").label("foo", "bar").ownerReference("Job", "j1").obj(),
            List.of(fooService), "foo=bar"));
  }

  @ParameterizedTest
  @MethodSource("selectorCases")
  void defaultSelector(V1Pod pod, List<io.kubernetes.client.common.KubernetesObject> objects,
      String want) {
    InMemoryCluster cluster = new InMemoryCluster();
    objects.forEach(cluster::create);

    String got = DefaultSelector.of(PodInfo.of(pod), cluster).toString();

    List<String> parts = new ArrayList<>(List.of(got.isEmpty() ? new String[0] : got.split(",")));
    parts.sort(null);
    assertThat(String.join(",", parts)).isEqualTo(want);
  }
}
