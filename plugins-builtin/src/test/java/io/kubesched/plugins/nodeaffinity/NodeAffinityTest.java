package io.kubesched.plugins.nodeaffinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScore;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports {@code TestNodeAffinity}, {@code TestNodeAffinityPriority} and the hint tests. */
final class NodeAffinityTest {
  private static final NodeAffinityArgs NO_ARGS = NodeAffinityArgs.defaults();
  private static final Status POD = Status.unresolvable(NodeAffinity.REASON_POD);
  private static final Status ENFORCED = Status.unresolvable(NodeAffinity.REASON_ENFORCED);

  static V1NodeSelectorRequirement expr(String key, String op, String... values) {
    V1NodeSelectorRequirement r = new V1NodeSelectorRequirement().key(key).operator(op);
    if (values.length > 0) {
      r.values(new ArrayList<>(List.of(values)));
    }
    return r;
  }

  static V1NodeSelectorRequirement nameIn(String... names) {
    return expr("metadata.name", "In", names);
  }

  static V1NodeSelectorTerm exprs(V1NodeSelectorRequirement... rs) {
    return new V1NodeSelectorTerm().matchExpressions(new ArrayList<>(List.of(rs)));
  }

  static V1NodeSelectorTerm fields(V1NodeSelectorRequirement... rs) {
    return new V1NodeSelectorTerm().matchFields(new ArrayList<>(List.of(rs)));
  }

  static V1NodeAffinity required(V1NodeSelectorTerm... terms) {
    return new V1NodeAffinity()
        .requiredDuringSchedulingIgnoredDuringExecution(
            new V1NodeSelector().nodeSelectorTerms(new ArrayList<>(List.of(terms))));
  }

  static V1PreferredSchedulingTerm preferred(int weight, V1NodeSelectorRequirement... rs) {
    return new V1PreferredSchedulingTerm().weight(weight).preference(exprs(rs));
  }

  static V1Pod podWith(V1NodeAffinity na) {
    return MakePod.pod().name("p").nodeAffinity(na).obj();
  }

  static V1Pod podWithSelector(Map<String, String> selector) {
    return MakePod.pod().name("p").nodeSelector(selector).obj();
  }

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "missing labels",
            podWithSelector(Map.of("foo", "bar")),
            "",
            Map.of(),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "same labels",
            podWithSelector(Map.of("foo", "bar")),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "node labels are superset",
            podWithSelector(Map.of("foo", "bar")),
            "",
            Map.of("foo", "bar", "baz", "blah"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "node labels are subset",
            podWithSelector(Map.of("foo", "bar", "baz", "blah")),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with matchExpressions using In operator that matches the existing node",
            podWith(required(exprs(expr("foo", "In", "bar", "value2")))),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with matchExpressions using Gt operator that matches the existing node",
            podWith(required(exprs(expr("kernel-version", "Gt", "0204")))),
            "",
            Map.of("kernel-version", "0206"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with matchExpressions using NotIn operator that matches the existing node",
            podWith(required(exprs(expr("mem-type", "NotIn", "DDR", "DDR2")))),
            "",
            Map.of("mem-type", "DDR3"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with matchExpressions using Exists operator that matches the existing node",
            podWith(required(exprs(expr("GPU", "Exists")))),
            "",
            Map.of("GPU", "NVIDIA-GRID-K1"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with affinity that don't match node's labels won't schedule onto the node",
            podWith(required(exprs(expr("foo", "In", "value1", "value2")))),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with empty MatchExpressions is not a valid value will match no objects and won't"
                + " schedule onto the node",
            podWith(required(exprs())),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with no Affinity will schedule onto a node",
            MakePod.pod().name("p").obj(),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.skip(),
            Status.success()),
        argumentSet(
            "pod with Affinity but nil NodeSelector will schedule onto a node",
            podWith(new V1NodeAffinity()),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.skip(),
            Status.success()),
        argumentSet(
            "pod with multiple matchExpressions ANDed that matches the existing node",
            podWith(required(exprs(expr("GPU", "Exists"), expr("GPU", "NotIn", "AMD", "INTER")))),
            "",
            Map.of("GPU", "NVIDIA-GRID-K1"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with multiple matchExpressions ANDed that doesn't match the existing node",
            podWith(required(exprs(expr("GPU", "Exists"), expr("GPU", "In", "AMD", "INTER")))),
            "",
            Map.of("GPU", "NVIDIA-GRID-K1"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels",
            podWith(
                required(
                    exprs(expr("foo", "In", "bar", "value2")),
                    exprs(expr("diffkey", "In", "wrong", "value2")))),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with an Affinity and a PodSpec.NodeSelector both satisfied",
            MakePod.pod()
                .name("p")
                .nodeSelector(Map.of("foo", "bar"))
                .nodeAffinity(required(exprs(expr("foo", "Exists"))))
                .obj(),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with an Affinity matches node's labels but the PodSpec.NodeSelector is not"
                + " satisfied",
            MakePod.pod()
                .name("p")
                .nodeSelector(Map.of("foo", "bar"))
                .nodeAffinity(required(exprs(expr("foo", "Exists"))))
                .obj(),
            "",
            Map.of("foo", "barrrrrr"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with an invalid value in Affinity term won't be scheduled onto the node",
            podWith(required(exprs(expr("foo", "NotIn", "invalid value: ___@#$%^")))),
            "",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with matchFields using In operator that matches the existing node",
            podWith(required(fields(nameIn("node1")))),
            "node1",
            Map.of(),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            Status.success()),
        argumentSet(
            "pod with matchFields using In operator that does not match the existing node",
            podWith(required(fields(nameIn("node1")))),
            "node2",
            Map.of(),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            POD),
        argumentSet(
            "pod with two terms: matchFields does not match, but matchExpressions matches",
            podWith(
                required(
                    fields(nameIn("node1"), nameIn("node2")), exprs(expr("foo", "In", "bar")))),
            "node2",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "pod with one term: matchFields does not match, but matchExpressions matches",
            podWith(
                required(
                    fields(nameIn("node1"))
                        .matchExpressions(new ArrayList<>(List.of(expr("foo", "In", "bar")))))),
            "node2",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            POD),
        argumentSet(
            "pod with one term: both matchFields and matchExpressions match",
            podWith(
                required(
                    fields(nameIn("node1"))
                        .matchExpressions(new ArrayList<>(List.of(expr("foo", "In", "bar")))))),
            "node1",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1")),
            Status.success()),
        argumentSet(
            "pod with two terms: both matchFields and matchExpressions do not match",
            podWith(
                required(fields(nameIn("node1")), exprs(expr("foo", "In", "not-match-to-bar")))),
            "node2",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.success(),
            POD),
        argumentSet(
            "pod with two terms of node.Name affinity",
            podWith(required(fields(nameIn("node1")), fields(nameIn("node2")))),
            "node2",
            Map.of(),
            NO_ARGS,
            PreFilterResult.nodes(Set.of("node1", "node2")),
            Status.success()),
        argumentSet(
            "pod with two conflicting mach field requirements",
            podWith(required(fields(nameIn("node1"), nameIn("node2")))),
            "node2",
            Map.of("foo", "bar"),
            NO_ARGS,
            PreFilterResult.of(Status.unresolvable(NodeAffinity.REASON_CONFLICT)),
            POD),
        argumentSet(
            "matches added affinity and Pod's node affinity",
            podWith(required(exprs(expr("zone", "In", "foo")))),
            "node2",
            Map.of("zone", "foo"),
            new NodeAffinityArgs(required(fields(nameIn("node2")))),
            PreFilterResult.success(),
            Status.success()),
        argumentSet(
            "matches added affinity but not Pod's node affinity",
            podWith(required(exprs(expr("zone", "In", "bar")))),
            "node2",
            Map.of("zone", "foo"),
            new NodeAffinityArgs(required(fields(nameIn("node2")))),
            PreFilterResult.success(),
            POD),
        argumentSet(
            "doesn't match added affinity",
            MakePod.pod().name("p").obj(),
            "node2",
            Map.of("zone", "foo"),
            new NodeAffinityArgs(required(exprs(expr("zone", "In", "bar")))),
            PreFilterResult.success(),
            ENFORCED));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void filter(
      V1Pod pod,
      String nodeName,
      Map<String, String> labels,
      NodeAffinityArgs args,
      PreFilterResult wantPreFilter,
      Status want) {
    NodeAffinity plugin = new NodeAffinity(args);
    PodInfo info = PodInfo.of(pod);
    NodeInfo node = MakeNode.node().name(nodeName).labels(labels).info();
    CycleState state = new CycleState();
    assertThat(plugin.preFilter(state, info, List.of(node))).isEqualTo(wantPreFilter);
    assertThat(plugin.filter(state, info, node)).isEqualTo(want);
    // kube's Filter computes the same when PreFilter did not run.
    assertThat(plugin.filter(new CycleState(), info, node)).isEqualTo(want);
    // The framework's path: the Filter bound once for the cycle answers the same.
    assertThat(plugin.bindFilter(state, info).filter(node)).isEqualTo(want);
    assertThat(plugin.bindFilter(new CycleState(), info).filter(node)).isEqualTo(want);
    assertThat(BoundFaces.assertFilterFaces(plugin, state, info, List.of(node)))
        .containsExactly(want);
  }

  static Stream<Arguments> scoreCases() {
    V1NodeAffinity affinity1 =
        new V1NodeAffinity()
            .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                preferred(2, expr("foo", "In", "bar")));
    V1NodeAffinity affinity2 =
        new V1NodeAffinity()
            .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                preferred(2, expr("foo", "In", "bar")))
            .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                preferred(4, expr("key", "In", "value")))
            .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                preferred(
                    5,
                    expr("foo", "In", "bar"),
                    expr("key", "In", "value"),
                    expr("az", "In", "az1")));
    Map<String, String> label1 = Map.of("foo", "bar");
    Map<String, String> label2 = Map.of("key", "value");
    Map<String, String> label3 = Map.of("az", "az1");
    Map<String, String> label4 = Map.of("abc", "az11", "def", "az22");
    Map<String, String> label5 = Map.of("foo", "bar", "key", "value", "az", "az1");
    return Stream.of(
        argumentSet(
            "all nodes are same priority as NodeAffinity is nil",
            MakePod.pod().obj(),
            List.of(node("node1", label1), node("node2", label2), node("node3", label3)),
            NO_ARGS,
            false,
            List.of(
                new NodeScore("node1", 0), new NodeScore("node2", 0), new NodeScore("node3", 0))),
        argumentSet(
            "no node matches preferred scheduling requirements in NodeAffinity of pod so all"
                + " nodes' priority is zero",
            podWith(affinity1),
            List.of(node("node1", label4), node("node2", label2), node("node3", label3)),
            NO_ARGS,
            true,
            List.of(
                new NodeScore("node1", 0), new NodeScore("node2", 0), new NodeScore("node3", 0))),
        argumentSet(
            "only node1 matches the preferred scheduling requirements of pod",
            podWith(affinity1),
            List.of(node("node1", label1), node("node2", label2), node("node3", label3)),
            NO_ARGS,
            true,
            List.of(
                new NodeScore("node1", 100), new NodeScore("node2", 0), new NodeScore("node3", 0))),
        argumentSet(
            "all nodes matches the preferred scheduling requirements of pod but with different"
                + " priorities",
            podWith(affinity2),
            List.of(node("node1", label1), node("node5", label5), node("node2", label2)),
            NO_ARGS,
            true,
            List.of(
                new NodeScore("node1", 18),
                new NodeScore("node5", 100),
                new NodeScore("node2", 36))),
        argumentSet(
            "added affinity",
            MakePod.pod().obj(),
            List.of(node("node1", label1), node("node2", label2)),
            new NodeAffinityArgs(affinity1),
            true,
            List.of(new NodeScore("node1", 100), new NodeScore("node2", 0))),
        argumentSet(
            "added affinity and pod has default affinity",
            podWith(affinity1),
            List.of(node("node1", label1), node("node2", label2), node("node3", label5)),
            new NodeAffinityArgs(
                new V1NodeAffinity()
                    .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                        preferred(3, expr("key", "In", "value")))),
            true,
            List.of(
                new NodeScore("node1", 40),
                new NodeScore("node2", 60),
                new NodeScore("node3", 100))),
        argumentSet(
            "calculate the priorities correctly even if PreScore is not called",
            podWith(affinity2),
            List.of(node("node1", label1), node("node5", label5), node("node2", label2)),
            NO_ARGS,
            false,
            List.of(
                new NodeScore("node1", 18),
                new NodeScore("node5", 100),
                new NodeScore("node2", 36))));
  }

  private static NodeInfo node(String name, Map<String, String> labels) {
    return MakeNode.node().name(name).labels(labels).info();
  }

  @ParameterizedTest
  @MethodSource("scoreCases")
  void score(
      V1Pod pod,
      List<NodeInfo> nodes,
      NodeAffinityArgs args,
      boolean runPreScore,
      List<NodeScore> want) {
    NodeAffinity plugin = new NodeAffinity(args);
    PodInfo info = PodInfo.of(pod);
    CycleState state = new CycleState();
    if (runPreScore) {
      assertThat(plugin.preScore(state, info, nodes)).isEqualTo(Status.success());
    }
    NodeScores scores = new NodeScores(nodes);
    long[] raw = BoundFaces.assertScoreFaces(plugin, state, info, nodes);
    for (int i = 0; i < nodes.size(); i++) {
      scores.set(i, raw[i]);
    }
    assertThat(plugin.normalizeScore(state, info, scores)).isEqualTo(Status.success());
    assertThat(scores.toList()).isEqualTo(want);
  }

  @Test
  void preScoreSkipsPodsWithoutPreferredTermsUnlessAffinityIsAdded() {
    List<NodeInfo> nodes = List.of(node("node1", Map.of()));
    PodInfo pod = MakePod.pod().info();
    assertThat(new NodeAffinity(NO_ARGS).preScore(new CycleState(), pod, nodes))
        .isEqualTo(Status.skip());
    assertThat(
            new NodeAffinity(
                    new NodeAffinityArgs(
                        new V1NodeAffinity()
                            .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                                preferred(1, expr("a", "Exists")))))
                .preScore(new CycleState(), pod, nodes))
        .isEqualTo(Status.success());
  }

  @Test
  void eventsToRegister() {
    assertThat(new NodeAffinity(NO_ARGS).eventsToRegister())
        .extracting(ClusterEventWithHint::event)
        .containsExactly(
            ClusterEvent.of(EventResource.NODE, ActionType.ADD | ActionType.UPDATE_NODE_LABEL));
  }

  static Stream<Arguments> hintCases() {
    V1Pod pod = MakePod.pod().name("p").nodeAffinityIn("foo", "bar").obj();
    return Stream.of(
        argumentSet(
            "skip queue on add", NO_ARGS, pod, null, MakeNode.node().obj(), QueueingHint.SKIP),
        argumentSet(
            "queue on add",
            NO_ARGS,
            pod,
            null,
            MakeNode.node().label("foo", "bar").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip unrelated changes",
            NO_ARGS,
            pod,
            MakeNode.node().obj(),
            MakeNode.node().capacity().obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip unrelated changes on labels",
            NO_ARGS,
            pod,
            MakeNode.node().obj(),
            MakeNode.node().label("k", "v").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip labels changes on suitable node",
            NO_ARGS,
            pod,
            MakeNode.node().label("foo", "bar").obj(),
            MakeNode.node().label("foo", "bar").label("k", "v").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "skip labels changes on node from suitable to unsuitable",
            NO_ARGS,
            pod,
            MakeNode.node().label("foo", "bar").obj(),
            MakeNode.node().label("k", "v").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue on labels change makes pod schedulable",
            NO_ARGS,
            pod,
            MakeNode.node().obj(),
            MakeNode.node().label("foo", "bar").obj(),
            QueueingHint.QUEUE),
        argumentSet(
            "skip queue on add when the added affinity does not match",
            new NodeAffinityArgs(required(exprs(expr("zone", "In", "z1")))),
            pod,
            null,
            MakeNode.node().label("foo", "bar").obj(),
            QueueingHint.SKIP),
        argumentSet(
            "queue on add when the added affinity matches too",
            new NodeAffinityArgs(required(exprs(expr("zone", "In", "z1")))),
            pod,
            null,
            MakeNode.node().label("foo", "bar").label("zone", "z1").obj(),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest
  @MethodSource("hintCases")
  void hint(NodeAffinityArgs args, V1Pod pod, V1Node oldNode, V1Node newNode, QueueingHint want) {
    assertThat(new NodeAffinity(args).isSchedulableAfterNodeChange(pod, oldNode, newNode))
        .isEqualTo(want);
  }

  static Stream<Arguments> argsCases() {
    String p = "profiles[0].pluginConfig[0].args";
    String req =
        p + ".addedAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    String pref = p + ".addedAffinity.preferredDuringSchedulingIgnoredDuringExecution";
    return Stream.of(
        argumentSet("no added affinity is valid", NO_ARGS, List.of()),
        argumentSet(
            "a valid added affinity",
            new NodeAffinityArgs(required(exprs(expr("zone", "In", "a")), fields(nameIn("n1")))),
            List.of()),
        argumentSet(
            "invalid added affinity",
            new NodeAffinityArgs(
                required(
                        exprs(expr("foo", "Equals", "bar")),
                        fields(expr("metadata.name", "In", "a", "b")))
                    .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                        preferred(1, expr("foo", "In")))),
            List.of(
                new FieldError(
                    req + "[0].matchExpressions[0].operator",
                    "Unsupported value: \"Equals\": supported values: \"In\", \"NotIn\","
                        + " \"Exists\", \"DoesNotExist\", \"Gt\", \"Lt\""),
                new FieldError(
                    req + "[1].matchFields[0].values",
                    "Invalid value: []string{\"a\", \"b\"}: must have one element"),
                new FieldError(
                    pref + "[0].matchExpressions[0].values",
                    "Invalid value: []string{}: for 'in', 'notin' operators, values set can't be"
                        + " empty"))),
        argumentSet(
            "Gt needs one integer value",
            new NodeAffinityArgs(required(exprs(expr("k", "Gt", "x", "1")))),
            List.of(
                new FieldError(
                    req + "[0].matchExpressions[0].values",
                    "Invalid value: []string{\"x\", \"1\"}: for 'Gt', 'Lt' operators, exactly one"
                        + " value is required"),
                new FieldError(
                    req + "[0].matchExpressions[0].values[0]",
                    "Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an"
                        + " integer"))));
  }

  @ParameterizedTest
  @MethodSource("argsCases")
  void validateArgs(NodeAffinityArgs args, List<FieldError> want) {
    assertThat(args.validate("profiles[0].pluginConfig[0].args")).isEqualTo(want);
  }
}
