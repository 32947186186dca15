package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Status;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FitError messages (kube's {@code TestFitError_Error}) and NodeToStatus/Diagnosis behaviour. */
final class FrameworkFitErrorTest {
  private static final Status ABSENT = Status.of(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);

  private static Map<String, Status> statuses(Object... nodeAndStatus) {
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < nodeAndStatus.length; i += 2) {
      m.put((String) nodeAndStatus[i], (Status) nodeAndStatus[i + 1]);
    }
    return m;
  }

  private static Diagnosis diagnosis(
      Map<String, Status> statuses, Status absent, String preFilterMsg, String postFilterMsg) {
    Diagnosis d = new Diagnosis(new NodeToStatus(statuses, absent));
    d.setPreFilterMsg(preFilterMsg);
    d.setPostFilterMsg(postFilterMsg);
    return d;
  }

  static Stream<Arguments> messages() {
    Status preFilter = Status.unschedulable("Node(s) failed PreFilter plugin FalsePreFilter");
    Status filter1 = Status.unschedulable("Node(s) failed Filter plugin FalseFilter-1");
    Status filter2 = Status.unschedulable("Node(s) failed Filter plugin FalseFilter-2");
    return Stream.of(
        argumentSet(
            "nodes failed a PreFilter plugin: only the PreFilter message, no histogram",
            3,
            diagnosis(
                statuses("node1", preFilter, "node2", preFilter, "node3", preFilter),
                ABSENT,
                "Node(s) failed PreFilter plugin FalsePreFilter",
                ""),
            "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter."),
        argumentSet(
            "nodes failed a PreFilter plugin and preemption failed too",
            3,
            diagnosis(
                statuses("node1", preFilter, "node2", preFilter, "node3", preFilter),
                ABSENT,
                "Node(s) failed PreFilter plugin FalsePreFilter",
                "Error running PostFilter plugin FailedPostFilter"),
            "0/3 nodes are available: Node(s) failed PreFilter plugin FalsePreFilter. Error running"
                + " PostFilter plugin FailedPostFilter"),
        argumentSet(
            "nodes failed one Filter plugin",
            3,
            diagnosis(statuses("node1", filter1, "node2", filter1, "node3", filter1), ABSENT, "", ""),
            "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1."),
        argumentSet(
            "nodes failed one Filter plugin, with a PostFilter message (no extra period)",
            3,
            diagnosis(
                statuses("node1", filter1, "node2", filter1, "node3", filter1),
                ABSENT,
                "",
                "Error running PostFilter plugin FailedPostFilter"),
            "0/3 nodes are available: 3 Node(s) failed Filter plugin FalseFilter-1. Error running"
                + " PostFilter plugin FailedPostFilter"),
        argumentSet(
            "nodes failed two Filter plugins: the histogram is sorted as strings",
            3,
            diagnosis(statuses("node1", filter1, "node2", filter1, "node3", filter2), ABSENT, "", ""),
            "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-2, 2 Node(s) failed"
                + " Filter plugin FalseFilter-1."),
        argumentSet(
            "failed to Permit on the only node",
            1,
            diagnosis(
                statuses("node1", Status.unschedulable("Node failed Permit plugin Permit-1")),
                ABSENT,
                "",
                ""),
            "0/1 nodes are available: 1 Node failed Permit plugin Permit-1."),
        argumentSet(
            "nodes absent from the map count with the absent-nodes reasons",
            3,
            diagnosis(
                statuses("node1", filter1),
                Status.unresolvable("Node(s) failed PreFilter plugin FalsePreFilter"),
                "",
                ""),
            "0/3 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-1, 2 Node(s) failed"
                + " PreFilter plugin FalsePreFilter."),
        argumentSet(
            "the default absent status has no reason and adds nothing",
            5,
            diagnosis(statuses("node1", filter1), ABSENT, "", ""),
            "0/5 nodes are available: 1 Node(s) failed Filter plugin FalseFilter-1."),
        argumentSet(
            "plain string sort puts 10 before 2, and every reason of a status counts",
            12,
            diagnosis(
                statuses(
                    "n0", Status.unschedulable("Insufficient cpu", "Insufficient memory"),
                    "n1", Status.unschedulable("Insufficient memory")),
                Status.unschedulable("Insufficient cpu"),
                "",
                ""),
            "0/12 nodes are available: 11 Insufficient cpu, 2 Insufficient memory."),
        argumentSet(
            "the example of framework-spec 2.2",
            3,
            diagnosis(
                statuses(
                    "a", Status.unresolvable("node(s) had untolerated taint {k: v}"),
                    "b", Status.unschedulable("Insufficient cpu"),
                    "c", Status.unschedulable("Insufficient cpu")),
                ABSENT,
                "",
                "preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2"
                    + " No preemption victims found for incoming pod."),
            "0/3 nodes are available: 1 node(s) had untolerated taint {k: v}, 2 Insufficient cpu."
                + " preemption: 0/3 nodes are available: 1 Preemption is not helpful for"
                + " scheduling, 2 No preemption victims found for incoming pod."),
        argumentSet(
            "nothing to report",
            2,
            diagnosis(statuses(), ABSENT, "", ""),
            "0/2 nodes are available:"));
  }

  @ParameterizedTest
  @MethodSource("messages")
  void formatsTheMessageAsKube(int numAllNodes, Diagnosis diagnosis, String expected) {
    FitError e = new FitError(Fixtures.pod("p"), numAllNodes, diagnosis);

    assertThat(e.getMessage()).isEqualTo(expected);
  }

  @Test
  void errorStatusesContributeTheirCauseAsAReason() {
    Diagnosis d =
        diagnosis(statuses("n1", Status.error("boom").withPlugin("X")), ABSENT, "", "");

    assertThat(new FitError(Fixtures.pod("p"), 1, d).getMessage())
        .isEqualTo("0/1 nodes are available: 1 boom.");
  }

  @Test
  void absentStatusAppliesToNodesWithoutEntry() {
    NodeToStatus m = new NodeToStatus(statuses("n1", Status.unschedulable("x")), ABSENT);

    assertThat(List.of(m.get("n1"), m.get("n2"))).containsExactly(Status.unschedulable("x"), ABSENT);
  }

  static Stream<Arguments> nodesForStatusCode() {
    Status u = Status.unschedulable("u");
    Status uu = Status.unresolvable("uu");
    return Stream.of(
        argumentSet(
            "absent status matches, no entries: every node",
            statuses(),
            uu,
            Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            List.of("n1", "n2", "n3")),
        argumentSet(
            "absent status matches: absent nodes plus matching entries, in lister order",
            statuses("n2", u, "n3", uu),
            uu,
            Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE,
            List.of("n1", "n3")),
        argumentSet(
            "absent status does not match: only the matching entries",
            statuses("n3", u, "n1", u, "n2", uu),
            uu,
            Status.Code.UNSCHEDULABLE,
            List.of("n3", "n1")),
        argumentSet(
            "entries for unknown nodes are dropped",
            statuses("gone", u),
            uu,
            Status.Code.UNSCHEDULABLE,
            List.of()));
  }

  @ParameterizedTest
  @MethodSource("nodesForStatusCode")
  void listsNodesForStatusCode(
      Map<String, Status> entries, Status absent, Status.Code code, List<String> expected) {
    NodeToStatus m = new NodeToStatus(entries, absent);

    List<NodeInfo> nodes =
        m.nodesForStatusCode(new Fixtures.Lister(Fixtures.nodes("n1", "n2", "n3")), code);

    assertThat(nodes).extracting(NodeInfo::name).isEqualTo(expected);
  }

  @Test
  void diagnosisRecordsRejectingAndPendingPlugins() {
    Diagnosis d = new Diagnosis();

    d.addPluginStatus(Status.unschedulable("x").withPlugin("A"));
    d.addPluginStatus(Status.pending("y").withPlugin("B"));
    d.addPluginStatus(Status.error("z").withPlugin("C"));
    d.addPluginStatus(Status.unschedulable("no plugin"));

    assertThat(List.of(d.unschedulablePlugins(), d.pendingPlugins()))
        .containsExactly(java.util.Set.of("A", "B"), java.util.Set.of("B"));
  }
}
