package io.kubesched.core.cluster;

import static io.kubesched.core.TestObjects.node;
import static io.kubesched.core.TestObjects.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubesched.core.time.SimulatedTime;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class InMemoryClusterTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private final SimulatedTime time = new SimulatedTime(T0);
  private final InMemoryCluster cluster = new InMemoryCluster(time.clock());

  /** Records listener callbacks as strings such as {@code podUpdate default/p rv=3 node=n1}. */
  private static final class Recorder implements ClusterListener {
    final List<String> calls = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onNodeAdd(V1Node n) {
      calls.add("nodeAdd " + n.getMetadata().getName());
    }

    @Override
    public void onNodeUpdate(V1Node old, V1Node n) {
      calls.add("nodeUpdate " + old.getMetadata().getName() + " " + rv(old) + "->" + rv(n));
    }

    @Override
    public void onNodeDelete(V1Node n) {
      calls.add("nodeDelete " + n.getMetadata().getName());
    }

    @Override
    public void onPodAdd(V1Pod p) {
      calls.add("podAdd " + p.getMetadata().getName());
    }

    @Override
    public void onPodUpdate(V1Pod old, V1Pod p) {
      calls.add(
          "podUpdate "
              + p.getMetadata().getName()
              + " "
              + rv(old)
              + "->"
              + rv(p)
              + " node="
              + p.getSpec().getNodeName());
    }

    @Override
    public void onPodDelete(V1Pod p) {
      calls.add("podDelete " + p.getMetadata().getName());
    }

    @Override
    public void onCustomObjectChange(
        String apiVersion, String kind, Map<String, Object> old, Map<String, Object> now) {
      calls.add(
          "custom "
              + apiVersion
              + " "
              + kind
              + " "
              + (old == null ? "-" : meta(old).get("resourceVersion") + "/" + old.get("spec"))
              + "->"
              + (now == null ? "-" : meta(now).get("resourceVersion") + "/" + now.get("spec")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> meta(Map<String, Object> o) {
      return (Map<String, Object>) o.get("metadata");
    }

    private static String rv(io.kubernetes.client.common.KubernetesObject o) {
      return o.getMetadata().getResourceVersion();
    }
  }

  @Test
  void listenerReceivesChangesInOrderWithBumpedResourceVersions() {
    Recorder r = new Recorder();
    cluster.addListener(r);

    cluster.addNode(node("n1", "4", "8Gi"));
    cluster.addPod(pod("p1"));
    cluster.updateNode(node("n1", "8", "8Gi"));
    cluster.bind(pod("p1"), "n1");
    cluster.deletePod(pod("p1"));
    cluster.deleteNode("n1");

    assertThat(r.calls)
        .containsExactly(
            "nodeAdd n1",
            "podAdd p1",
            "nodeUpdate n1 1->3",
            "podUpdate p1 2->4 node=n1",
            "podDelete p1",
            "nodeDelete n1");
    assertThat(cluster.resourceVersion()).isEqualTo(4);
  }

  static Stream<Arguments> gatedCreation() {
    return Stream.of(
        argumentSet(
            "a gated pod gets SchedulingGated, as from the API server",
            List.of("example.com/gate"),
            List.of(
                "False",
                "SchedulingGated",
                "Scheduling is blocked due to non-empty scheduling gates")),
        argumentSet("a pod without gates gets no condition", List.of(), List.of()));
  }

  @ParameterizedTest
  @MethodSource("gatedCreation")
  void podCreationAddsTheSchedulingGatedCondition(List<String> gates, List<String> condition) {
    V1Pod p = pod("p1");
    gates.forEach(
        g ->
            p.getSpec()
                .addSchedulingGatesItem(
                    new io.kubernetes.client.openapi.models.V1PodSchedulingGate().name(g)));

    V1Pod stored = cluster.addPod(p);

    List<V1PodCondition> conditions =
        stored.getStatus().getConditions() == null ? List.of() : stored.getStatus().getConditions();
    assertThat(
            conditions.stream()
                .filter(c -> c.getType().equals("PodScheduled"))
                .flatMap(c -> Stream.of(c.getStatus(), c.getReason(), c.getMessage()))
                .toList())
        .isEqualTo(condition);
  }

  @Test
  void podCreationDefaultsRequestsFromLimitsAndHostNetworkPorts() {
    V1Pod p = pod("p1");
    p.getSpec().setHostNetwork(true);
    p.getSpec()
        .addContainersItem(
            new V1Container()
                .name("c")
                .resources(
                    new V1ResourceRequirements()
                        .putRequestsItem("memory", Quantity.fromString("1Gi"))
                        .putLimitsItem("cpu", Quantity.fromString("2"))
                        .putLimitsItem("memory", Quantity.fromString("2Gi")))
                .addPortsItem(new V1ContainerPort().containerPort(9100))
                .addPortsItem(
                    new V1ContainerPort().containerPort(53).hostPort(5353).protocol("UDP")));

    V1Container c = cluster.addPod(p).getSpec().getContainers().get(0);

    assertThat(c.getResources().getRequests())
        .isEqualTo(Map.of("cpu", Quantity.fromString("2"), "memory", Quantity.fromString("1Gi")));
    assertThat(c.getPorts())
        .containsExactly(
            new V1ContainerPort().containerPort(9100).hostPort(9100).protocol("TCP"),
            new V1ContainerPort().containerPort(53).hostPort(5353).protocol("UDP"));
  }

  @Test
  void nodesWithoutAllocatableGetTheirCapacity() {
    V1Node n = node("n1");
    n.setStatus(
        new io.kubernetes.client.openapi.models.V1NodeStatus()
            .putCapacityItem("cpu", Quantity.fromString("4"))
            .putCapacityItem("pods", Quantity.fromString("110")));

    V1Node created = cluster.addNode(n);
    V1Node updated = cluster.updateNode(n);

    Map<String, Quantity> want =
        Map.of("cpu", Quantity.fromString("4"), "pods", Quantity.fromString("110"));
    assertThat(List.of(created.getStatus().getAllocatable(), updated.getStatus().getAllocatable()))
        .containsExactly(want, want);
  }

  /** Services are listed from a listing kept between writes: each write shows in the next list. */
  @Test
  void listsOfAKindKeptBetweenWritesShowEveryWrite() {
    List<String> seen = new ArrayList<>();
    Runnable look =
        () ->
            seen.add(
                cluster.listServices("default").stream()
                        .map(s -> s.getMetadata().getName() + "@" + s.getSpec().getSelector())
                        .toList()
                    + " other="
                    + cluster.listServices("other").size()
                    + " all="
                    + cluster.list(V1Service.class, null).size());
    look.run();
    cluster.create(service("default", "a", "one"));
    look.run();
    cluster.create(service("other", "b", "two"));
    look.run();
    cluster.update(service("default", "a", "three"));
    look.run();
    cluster.delete(V1Service.class, "default", "a");
    look.run();

    assertThat(seen)
        .containsExactly(
            "[] other=0 all=0",
            "[a@{app=one}] other=0 all=1",
            "[a@{app=one}] other=1 all=2",
            "[a@{app=three}] other=1 all=2",
            "[] other=1 all=1");
  }

  private static V1Service service(String namespace, String name, String app) {
    return new V1Service()
        .metadata(new V1ObjectMeta().namespace(namespace).name(name))
        .spec(new io.kubernetes.client.openapi.models.V1ServiceSpec().selector(Map.of("app", app)));
  }

  @Test
  void namespacesHaveTheMetadataNameLabelAndUnknownOnesOnlyThat() {
    cluster.create(
        new V1Namespace().metadata(new V1ObjectMeta().name("team-a").putLabelsItem("team", "a")));

    V1Pod p = pod("p1");
    p.getMetadata().setNamespace("implicit");
    cluster.addPod(p);

    assertThat(List.of(cluster.namespaceLabels("team-a"), cluster.namespaceLabels("ghost")))
        .containsExactly(
            Map.of("team", "a", "kubernetes.io/metadata.name", "team-a"),
            Map.of("kubernetes.io/metadata.name", "ghost"));
    assertThat(cluster.listNamespaces())
        .extracting(ns -> ns.getMetadata().getName(), ns -> ns.getMetadata().getLabels())
        .containsExactly(
            tuple("team-a", Map.of("team", "a", "kubernetes.io/metadata.name", "team-a")),
            tuple("implicit", Map.of("kubernetes.io/metadata.name", "implicit")));
  }

  @Test
  void addListenerReplaysNodesThenPodsOnlyToTheNewListener() {
    Recorder first = new Recorder();
    cluster.addListener(first);
    cluster.addPod(pod("p1"));
    cluster.addNode(node("n1"));
    cluster.addNode(node("n2"));

    Recorder second = new Recorder();
    cluster.addListener(second);

    assertThat(second.calls).containsExactly("nodeAdd n1", "nodeAdd n2", "podAdd p1");
    assertThat(first.calls).containsExactly("podAdd p1", "nodeAdd n1", "nodeAdd n2");
  }

  @Test
  void removedListenerHearsNothingMore() {
    Recorder r = new Recorder();
    cluster.addListener(r);
    cluster.addNode(node("n1"));
    cluster.removeListener(r);
    cluster.addNode(node("n2"));

    assertThat(r.calls).containsExactly("nodeAdd n1");
  }

  @Test
  void changesMadeByAListenerAreDeliveredAfterTheCurrentCallback() {
    List<String> calls = new ArrayList<>();
    cluster.addNode(node("n1"));
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onPodAdd(V1Pod p) {
            calls.add("add " + p.getMetadata().getName());
            if (p.getSpec().getNodeName() == null) {
              cluster.bind(p, "n1");
            }
            calls.add("add done " + p.getMetadata().getName());
          }

          @Override
          public void onPodUpdate(V1Pod old, V1Pod p) {
            calls.add("update " + p.getMetadata().getName() + " " + p.getSpec().getNodeName());
          }
        });

    cluster.addPod(pod("p1"));

    assertThat(calls).containsExactly("add p1", "add done p1", "update p1 n1");
    assertThat(cluster.getPod("default", "p1").orElseThrow().getSpec().getNodeName())
        .isEqualTo("n1");
  }

  @Test
  void aFailingListenerDoesNotStopDelivery() {
    Recorder r = new Recorder();
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onNodeAdd(V1Node n) {
            throw new IllegalStateException("boom");
          }
        });
    cluster.addListener(r);

    cluster.addNode(node("n1"));
    cluster.addNode(node("n2"));

    assertThat(r.calls).containsExactly("nodeAdd n1", "nodeAdd n2");
  }

  @Test
  void bindSetsNodeNameAndPodScheduledTrue() {
    cluster.addNode(node("n1"));
    cluster.addPod(pod("p1"));
    time.advance(java.time.Duration.ofSeconds(5));
    cluster.patchPodScheduledCondition(
        pod("p1"), "Unschedulable", "0/1 nodes are available.", null);
    time.advance(java.time.Duration.ofSeconds(5));

    cluster.bind(pod("p1"), "n1");

    V1Pod bound = cluster.getPod("default", "p1").orElseThrow();
    assertThat(bound.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(bound.getStatus().getConditions())
        .containsExactly(
            new V1PodCondition()
                .type("PodScheduled")
                .status("True")
                .lastTransitionTime(OffsetDateTime.ofInstant(T0.plusSeconds(10), ZoneOffset.UTC)));
  }

  static Stream<Arguments> bindErrors() {
    V1Pod other = pod("p1");
    other.getMetadata().setUid("other-uid");
    V1Pod deleting = pod("p2");
    deleting.getMetadata().setDeletionTimestamp(OffsetDateTime.parse("2026-01-01T00:00:00Z"));
    V1Pod bound = pod("p3");
    bound.getSpec().setNodeName("n1");
    return Stream.of(
        argumentSet(
            "binding an already assigned pod is a conflict naming its node",
            bound,
            "n1",
            ClusterException.Reason.CONFLICT,
            "Operation cannot be fulfilled on pods/binding \"p3\": pod p3 is already assigned to"
                + " node \"n1\""),
        argumentSet(
            "binding a pod being deleted is a conflict",
            deleting,
            "n1",
            ClusterException.Reason.CONFLICT,
            "Operation cannot be fulfilled on pods/binding \"p2\": pod p2 is being deleted,"
                + " cannot be assigned to a host"),
        argumentSet(
            "binding to a node that does not exist is not found",
            pod("p1"),
            "nope",
            ClusterException.Reason.NOT_FOUND,
            "nodes \"nope\" not found"),
        argumentSet(
            "binding a pod that does not exist is not found",
            pod("ghost"),
            "n1",
            ClusterException.Reason.NOT_FOUND,
            "pods \"ghost\" not found"),
        argumentSet(
            "binding with another UID fails the precondition",
            other,
            "n1",
            ClusterException.Reason.CONFLICT,
            "Operation cannot be fulfilled on pods/binding \"p1\": Precondition failed: UID in"
                + " precondition: other-uid, UID in object meta: default/p1"));
  }

  @ParameterizedTest
  @MethodSource("bindErrors")
  void bindRefusesLikeTheApiServer(
      V1Pod target, String node, ClusterException.Reason reason, String message) {
    cluster.addNode(node("n1"));
    cluster.addPod(pod("p1"));
    V1Pod deleting = pod("p2");
    deleting.getMetadata().setDeletionTimestamp(OffsetDateTime.parse("2026-01-01T00:00:00Z"));
    cluster.addPod(deleting);
    V1Pod bound = pod("p3");
    bound.getSpec().setNodeName("n1");
    cluster.addPod(bound);
    long rv = cluster.resourceVersion();

    assertThatThrownBy(() -> cluster.bind(target, node))
        .isInstanceOfSatisfying(
            ClusterException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(reason);
              assertThat(e.getMessage()).isEqualTo(message);
            });
    assertThat(cluster.resourceVersion()).isEqualTo(rv);
  }

  private static V1PriorityClass priorityClass(
      String name, int value, boolean globalDefault, String policy) {
    return new V1PriorityClass()
        .metadata(new V1ObjectMeta().name(name))
        .value(value)
        .globalDefault(globalDefault)
        .preemptionPolicy(policy);
  }

  static Stream<Arguments> priorities() {
    return Stream.of(
        argumentSet(
            "the priority comes from the named class with its preemption policy",
            (Consumer<V1Pod>) p -> p.getSpec().setPriorityClassName("high"),
            List.of(priorityClass("high", 1000, false, "Never")),
            1000,
            "high",
            "Never"),
        argumentSet(
            "a pod without class gets the global default class",
            (Consumer<V1Pod>) p -> {},
            List.of(
                priorityClass("high", 1000, false, null),
                priorityClass("default-a", 50, true, null),
                priorityClass("default-b", 20, true, null)),
            20,
            "default-b",
            null),
        argumentSet(
            "a pod without class and no global default gets 0 and PreemptLowerPriority",
            (Consumer<V1Pod>) p -> {},
            List.of(priorityClass("high", 1000, false, null)),
            0,
            null,
            "PreemptLowerPriority"),
        argumentSet(
            "an explicit priority is kept as given",
            (Consumer<V1Pod>)
                p -> {
                  p.getSpec().setPriority(7);
                  p.getSpec().setPriorityClassName("high");
                },
            List.of(priorityClass("high", 1000, false, null)),
            7,
            "high",
            null),
        argumentSet(
            "system-cluster-critical is known without being created",
            (Consumer<V1Pod>) p -> p.getSpec().setPriorityClassName("system-cluster-critical"),
            List.of(),
            2000000000,
            "system-cluster-critical",
            "PreemptLowerPriority"));
  }

  @ParameterizedTest
  @MethodSource("priorities")
  void podPriorityIsResolvedAsTheAdmissionPluginDoes(
      Consumer<V1Pod> customize,
      List<V1PriorityClass> classes,
      int wantPriority,
      String wantClass,
      String wantPolicy) {
    classes.forEach(cluster::create);
    V1Pod p = pod("p1");
    customize.accept(p);

    V1Pod stored = cluster.addPod(p);

    assertThat(
            List.of(
                stored.getSpec().getPriority(),
                String.valueOf(stored.getSpec().getPriorityClassName()),
                String.valueOf(stored.getSpec().getPreemptionPolicy())))
        .isEqualTo(List.of(wantPriority, String.valueOf(wantClass), String.valueOf(wantPolicy)));
    assertThat(stored.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(stored.getSpec().getSchedulerName()).isEqualTo("default-scheduler");
  }

  @Test
  void aPodNamingAnUnknownPriorityClassIsForbidden() {
    V1Pod p = pod("p1");
    p.getSpec().setPriorityClassName("missing");

    assertThatThrownBy(() -> cluster.addPod(p))
        .isInstanceOf(ClusterException.class)
        .hasMessage("pods \"p1\" is forbidden: no PriorityClass with name missing was found");
    assertThat(cluster.listPods()).isEmpty();
  }

  @Test
  void patchPodScheduledConditionWritesOnlyWhenSomethingChanges() {
    Recorder r = new Recorder();
    cluster.addPod(pod("p1"));
    cluster.addListener(r);

    cluster.patchPodScheduledCondition(pod("p1"), "Unschedulable", "msg", null);
    time.advance(java.time.Duration.ofSeconds(1));
    cluster.patchPodScheduledCondition(pod("p1"), "Unschedulable", "msg", null);
    cluster.patchPodScheduledCondition(pod("p1"), "Unschedulable", "msg", "n1");
    cluster.patchPodScheduledCondition(pod("p1"), "Unschedulable", "msg", "n1");
    cluster.patchPodScheduledCondition(pod("p1"), "SchedulerError", "boom", "");

    V1Pod p = cluster.getPod("default", "p1").orElseThrow();
    assertThat(r.calls)
        .containsExactly(
            "podAdd p1",
            "podUpdate p1 1->2 node=null",
            "podUpdate p1 2->3 node=null",
            "podUpdate p1 3->4 node=null");
    assertThat(p.getStatus().getNominatedNodeName()).isNull();
    assertThat(p.getStatus().getConditions())
        .containsExactly(
            new V1PodCondition()
                .type("PodScheduled")
                .status("False")
                .reason("SchedulerError")
                .message("boom")
                .lastTransitionTime(OffsetDateTime.ofInstant(T0, ZoneOffset.UTC)));
  }

  @Test
  void setNominatedNodeNameSetsAndClears() {
    cluster.addPod(pod("p1"));
    cluster.setNominatedNodeName(pod("p1"), "n1");
    assertThat(cluster.getPod("default", "p1").orElseThrow().getStatus().getNominatedNodeName())
        .isEqualTo("n1");
    long rv = cluster.resourceVersion();
    cluster.setNominatedNodeName(pod("p1"), "n1");
    assertThat(cluster.resourceVersion()).isEqualTo(rv);
    cluster.setNominatedNodeName(pod("p1"), null);
    assertThat(cluster.getPod("default", "p1").orElseThrow().getStatus().getNominatedNodeName())
        .isNull();
  }

  @Test
  void createAndUpdateCheckExistenceAndResourceVersion() {
    V1Pod created = cluster.addPod(pod("p1"));

    assertThatThrownBy(() -> cluster.addPod(pod("p1")))
        .isInstanceOf(ClusterException.class)
        .hasMessage("pods \"p1\" already exists");
    assertThatThrownBy(() -> cluster.updatePod(pod("p2")))
        .isInstanceOf(ClusterException.class)
        .hasMessage("pods \"p2\" not found");

    V1Pod stale = pod("p1");
    stale.getMetadata().setResourceVersion(created.getMetadata().getResourceVersion());
    stale.getMetadata().putLabelsItem("a", "b");
    cluster.updatePod(stale);
    assertThatThrownBy(() -> cluster.updatePod(stale))
        .isInstanceOf(ClusterException.class)
        .hasMessage(
            "Operation cannot be fulfilled on pods \"p1\": the object has been modified; please"
                + " apply your changes to the latest version and try again");
    assertThat(cluster.getPod("default", "p1").orElseThrow().getMetadata().getLabels())
        .isEqualTo(Map.of("a", "b"));
  }

  @Test
  void storedObjectsAreCopiesOfTheInput() {
    V1Pod input = pod("p1");
    cluster.addPod(input);
    input.getMetadata().putLabelsItem("changed", "yes");
    input.getSpec().setNodeName("n1");

    V1Pod stored = cluster.getPod("default", "p1").orElseThrow();
    assertThat(stored.getMetadata().getLabels()).isNullOrEmpty();
    assertThat(stored.getSpec().getNodeName()).isNull();
    assertThat(stored.getMetadata().getCreationTimestamp())
        .isEqualTo(OffsetDateTime.ofInstant(T0, ZoneOffset.UTC));
  }

  @Test
  void otherKindsAreStoredListedByNamespaceAndDeleted() {
    cluster.create(
        new V1Namespace().metadata(new V1ObjectMeta().name("team").labels(Map.of("env", "a"))));
    cluster.create(new V1Service().metadata(new V1ObjectMeta().name("s1").namespace("team")));
    cluster.create(new V1Service().metadata(new V1ObjectMeta().name("s2")));
    cluster.create(new V1Deployment().metadata(new V1ObjectMeta().name("d1")));

    assertThat(cluster.namespaceLabels("team"))
        .isEqualTo(Map.of("env", "a", "kubernetes.io/metadata.name", "team"));
    assertThat(cluster.namespaceLabels("unknown"))
        .isEqualTo(Map.of("kubernetes.io/metadata.name", "unknown"));
    assertThat(cluster.listServices("team"))
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("s1");
    assertThat(cluster.listServices(null))
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("s1", "s2");
    assertThat(cluster.list(V1Deployment.class, "default")).hasSize(1);
    assertThat(cluster.delete(V1Service.class, "team", "s1")).isTrue();
    assertThat(cluster.delete(V1Service.class, "team", "s1")).isFalse();
    assertThat(cluster.listServices(null))
        .extracting(s -> s.getMetadata().getName())
        .containsExactly("s2");
  }

  @Test
  void customObjectsAreKeyedByApiVersionKindNamespaceAndName() {
    Map<String, Object> pg =
        Map.of(
            "apiVersion",
            "scheduling.x-k8s.io/v1alpha1",
            "kind",
            "PodGroup",
            "metadata",
            Map.of("name", "g1", "namespace", "ns1"),
            "spec",
            Map.of("minMember", 3));
    cluster.createCustomObject(pg);
    cluster.createCustomObject(
        Map.of(
            "apiVersion", "scheduling.x-k8s.io/v1alpha1",
            "kind", "PodGroup",
            "metadata", Map.of("name", "g1", "namespace", "ns2")));

    assertThat(cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", null))
        .hasSize(2);
    List<Map<String, Object>> ns1 =
        cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", "ns1");
    assertThat(ns1).hasSize(1);
    assertThat(ns1.get(0).get("spec")).isEqualTo(Map.of("minMember", 3));
    assertThatThrownBy(() -> cluster.createCustomObject(pg))
        .isInstanceOf(ClusterException.class)
        .hasMessage("podgroups \"g1\" already exists");
    assertThat(cluster.deleteCustomObject("scheduling.x-k8s.io/v1alpha1", "PodGroup", "ns1", "g1"))
        .isTrue();
    assertThat(cluster.listCustomObjects("scheduling.x-k8s.io/v1alpha1", "PodGroup", null))
        .hasSize(1);
  }

  @Test
  void eventsAreRecordedWithTheirRegardingObject() {
    V1Pod p = cluster.addPod(pod("p1"));
    cluster.event(p, "Warning", "FailedScheduling", "Scheduling", "0/0 nodes are available.");
    cluster.event(node("n1"), "Normal", "Something", "Doing", "hi");

    assertThat(cluster.events())
        .containsExactly(
            new CoreEvent(
                "Warning",
                "FailedScheduling",
                "Scheduling",
                "0/0 nodes are available.",
                "Pod",
                "default",
                "p1",
                T0),
            new CoreEvent("Normal", "Something", "Doing", "hi", "Node", "", "n1", T0));
    assertThat(cluster.eventsFor("Pod", "default", "p1")).hasSize(1);
  }

  @Test
  void concurrentWritersAreDeliveredEachChangeOnceInResourceVersionOrder() throws Exception {
    List<Long> versions = Collections.synchronizedList(new ArrayList<>());
    cluster.addListener(
        new ClusterListener() {
          @Override
          public void onPodAdd(V1Pod p) {
            versions.add(Long.parseLong(p.getMetadata().getResourceVersion()));
          }
        });
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < 250; i++) {
                    cluster.addPod(pod("p-" + thread + "-" + i));
                  }
                }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }

    assertThat(versions).hasSize(1000).isSorted().doesNotHaveDuplicates();
    assertThat(cluster.listPods()).hasSize(1000);
  }

  @Test
  void customObjectChangesAreDeliveredToListenersWithTheirOldAndNewVersions() {
    Recorder r = new Recorder();
    cluster.addListener(r);
    Map<String, Object> pg =
        Map.of(
            "apiVersion",
            "scheduling.x-k8s.io/v1alpha1",
            "kind",
            "PodGroup",
            "metadata",
            Map.of("namespace", "ns1", "name", "g1"),
            "spec",
            Map.of("minMember", 2));
    cluster.createCustomObject(pg);
    Map<String, Object> changed = new java.util.HashMap<>(pg);
    changed.put("spec", Map.of("minMember", 3));
    cluster.updateCustomObject(changed);
    Map<String, Object> withStatus = new java.util.HashMap<>(changed);
    withStatus.put("status", Map.of("phase", "Pending"));
    cluster.updateCustomObjectStatus(withStatus);
    cluster.deleteCustomObject("scheduling.x-k8s.io/v1alpha1", "PodGroup", "ns1", "g1");
    assertThat(cluster.deleteCustomObject("scheduling.x-k8s.io/v1alpha1", "PodGroup", "ns1", "g1"))
        .isFalse();

    assertThat(r.calls)
        .containsExactly(
            "custom scheduling.x-k8s.io/v1alpha1 PodGroup -->1/{minMember=2}",
            "custom scheduling.x-k8s.io/v1alpha1 PodGroup 1/{minMember=2}->2/{minMember=3}",
            "custom scheduling.x-k8s.io/v1alpha1 PodGroup 2/{minMember=3}->3/{minMember=3}",
            "custom scheduling.x-k8s.io/v1alpha1 PodGroup 3/{minMember=3}->-");
  }
}
