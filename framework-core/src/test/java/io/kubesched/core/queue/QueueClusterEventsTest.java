package io.kubesched.core.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeCondition;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1NodeStatus;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Taint;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.framework.ActionType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The events derived from pod and node updates (kube's events.go, used by the event handlers). */
final class QueueClusterEventsTest {

  private static V1Pod basePod(String node) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name("p").namespace("ns").labels(Map.of("a", "1")))
        .spec(
            new V1PodSpec()
                .nodeName(node)
                .addContainersItem(
                    new V1Container()
                        .name("c")
                        .resources(
                            new V1ResourceRequirements()
                                .requests(new HashMap<>(Map.of("cpu", new Quantity("500m"))))))
                .addSchedulingGatesItem(new V1PodSchedulingGate().name("g")));
  }

  private static V1Pod change(V1Pod base, UnaryOperator<V1Pod> f) {
    V1Pod p = basePodLike(base);
    return f.apply(p);
  }

  private static V1Pod basePodLike(V1Pod base) {
    return basePod(base.getSpec().getNodeName());
  }

  static Stream<Arguments> podUpdates() {
    return Stream.of(
        argumentSet(
            "label change",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getMetadata().setLabels(Map.of("a", "2"));
                  return p;
                },
            List.of("UnschedulablePod/UpdatePodLabel")),
        argumentSet(
            "request scaled down",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getSpec()
                      .getContainers()
                      .get(0)
                      .getResources()
                      .getRequests()
                      .put("cpu", new Quantity("200m"));
                  return p;
                },
            List.of("UnschedulablePod/UpdatePodScaleDown")),
        argumentSet(
            "request scaled up is not an event of its own",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getSpec()
                      .getContainers()
                      .get(0)
                      .getResources()
                      .getRequests()
                      .put("cpu", new Quantity("1"));
                  return p;
                },
            List.of("UnschedulablePod/updatePodOther")),
        argumentSet(
            "gates removed",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getSpec().setSchedulingGates(new ArrayList<>());
                  return p;
                },
            List.of("UnschedulablePod/UpdatePodSchedulingGatesEliminated")),
        argumentSet(
            "toleration added",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getSpec().addTolerationsItem(new V1Toleration().key("k").operator("Exists"));
                  return p;
                },
            List.of("UnschedulablePod/UpdatePodToleration")),
        argumentSet(
            "several changes keep kube's order",
            null,
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getMetadata().setLabels(null);
                  p.getSpec().setSchedulingGates(null);
                  p.getSpec().getContainers().get(0).getResources().getRequests().clear();
                  return p;
                },
            List.of(
                "UnschedulablePod/UpdatePodLabel",
                "UnschedulablePod/UpdatePodScaleDown",
                "UnschedulablePod/UpdatePodSchedulingGatesEliminated")),
        argumentSet(
            "an assigned pod's label change",
            "n1",
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getMetadata().setLabels(Map.of("b", "1"));
                  return p;
                },
            List.of("AssignedPod/UpdatePodLabel")),
        argumentSet(
            "nothing relevant",
            "n1",
            (UnaryOperator<V1Pod>)
                p -> {
                  p.getMetadata().setResourceVersion("2");
                  return p;
                },
            List.of("AssignedPod/updatePodOther")));
  }

  @ParameterizedTest
  @MethodSource("podUpdates")
  void podUpdateEvents(String node, UnaryOperator<V1Pod> mutate, List<String> want) {
    V1Pod old = basePod(node);
    V1Pod updated = change(old, mutate);
    List<String> got = new ArrayList<>();
    ClusterEvents.podSchedulingPropertiesChange(updated, old)
        .forEach(e -> got.add(e.resource() + "/" + ActionType.toString(e.actionType())));
    assertThat(got).isEqualTo(want);
  }

  private static V1Node baseNode() {
    return new V1Node()
        .metadata(
            new V1ObjectMeta().name("n").labels(Map.of("zone", "a")).annotations(Map.of("x", "1")))
        .spec(new V1NodeSpec().unschedulable(true))
        .status(
            new V1NodeStatus()
                .allocatable(Map.of("cpu", new Quantity("4")))
                .addConditionsItem(
                    new V1NodeCondition().type("Ready").status("True").reason("ok")));
  }

  static Stream<Arguments> nodeUpdates() {
    return Stream.of(
        argumentSet(
            "became schedulable is reported as UpdateNodeTaint",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getSpec().setUnschedulable(false);
                  return n;
                },
            List.of("UpdateNodeTaint")),
        argumentSet(
            "allocatable changed",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getStatus().setAllocatable(Map.of("cpu", new Quantity("8")));
                  return n;
                },
            List.of("UpdateNodeAllocatable")),
        argumentSet(
            "same allocatable written differently is no change",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getStatus().setAllocatable(Map.of("cpu", new Quantity("4000m")));
                  return n;
                },
            List.of()),
        argumentSet(
            "label changed",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getMetadata().setLabels(Map.of("zone", "b"));
                  return n;
                },
            List.of("UpdateNodeLabel")),
        argumentSet(
            "taint added",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getSpec().addTaintsItem(new V1Taint().key("k").effect("NoSchedule"));
                  return n;
                },
            List.of("UpdateNodeTaint")),
        argumentSet(
            "condition status changed",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getStatus().getConditions().get(0).setStatus("False");
                  return n;
                },
            List.of("UpdateNodeCondition")),
        argumentSet(
            "condition reason alone is no change",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getStatus().getConditions().get(0).setReason("other");
                  return n;
                },
            List.of()),
        argumentSet(
            "annotation changed",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getMetadata().setAnnotations(null);
                  return n;
                },
            List.of("UpdateNodeAnnotation")),
        argumentSet(
            "schedulable and label and taint, in kube's order",
            (UnaryOperator<V1Node>)
                n -> {
                  n.getSpec().setUnschedulable(null);
                  n.getMetadata().setLabels(null);
                  n.getSpec().addTaintsItem(new V1Taint().key("k").effect("NoSchedule"));
                  return n;
                },
            List.of("UpdateNodeTaint", "UpdateNodeLabel", "UpdateNodeTaint")));
  }

  @ParameterizedTest
  @MethodSource("nodeUpdates")
  void nodeUpdateEvents(UnaryOperator<V1Node> mutate, List<String> want) {
    V1Node old = baseNode();
    V1Node updated = mutate.apply(baseNode());
    List<String> got = new ArrayList<>();
    ClusterEvents.nodeSchedulingPropertiesChange(updated, old)
        .forEach(e -> got.add(ActionType.toString(e.actionType())));
    assertThat(got).isEqualTo(want);
  }
}
