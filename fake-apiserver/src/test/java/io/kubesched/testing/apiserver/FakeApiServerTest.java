package io.kubesched.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.EventsV1Api;
import io.kubernetes.client.openapi.apis.PolicyV1Api;
import io.kubernetes.client.openapi.apis.SchedulingV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.EventsV1Event;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudgetSpec;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.Watch;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

final class FakeApiServerTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);

  @AfterEach
  void close() {
    server.close();
  }

  private V1Pod pod(String name, Map<String, String> labels) throws ApiException {
    return core.createNamespacedPod(
            "default",
            new V1Pod()
                .metadata(new V1ObjectMeta().name(name).labels(labels))
                .spec(new V1PodSpec().addContainersItem(new V1Container().name("con0").image("c"))))
        .execute();
  }

  @Test
  void createFillsTypeAndServerFieldsAndGetReturnsTheObject() throws Exception {
    V1Pod created = pod("p1", Map.of("app", "a"));
    assertThat(created.getApiVersion()).isEqualTo("v1");
    assertThat(created.getKind()).isEqualTo("Pod");
    assertThat(created.getMetadata().getNamespace()).isEqualTo("default");
    assertThat(created.getMetadata().getUid()).isNotEmpty();
    assertThat(created.getMetadata().getResourceVersion()).isNotEmpty();
    assertThat(created.getStatus().getPhase()).isEqualTo("Pending");
    assertThat(core.readNamespacedPod("p1", "default").execute()).isEqualTo(created);
    assertThatThrownBy(() -> pod("p1", Map.of()))
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    assertThatThrownBy(() -> core.readNamespacedPod("nope", "default").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
  }

  @Test
  void listFiltersByLabelAndFieldSelectors() throws Exception {
    pod("a", Map.of("app", "web", "tier", "front"));
    pod("b", Map.of("app", "db"));
    pod("c", Map.of());
    bind("a", "n1");
    assertThat(
            names(core.listNamespacedPod("default").labelSelector("app=web").execute().getItems()))
        .containsExactly("a");
    assertThat(
            names(
                core.listNamespacedPod("default")
                    .labelSelector("app in (web,db),!tier")
                    .execute()
                    .getItems()))
        .containsExactly("b");
    assertThat(names(core.listNamespacedPod("default").labelSelector("app").execute().getItems()))
        .containsExactly("a", "b");
    assertThat(
            names(
                core.listPodForAllNamespaces()
                    .fieldSelector("spec.nodeName=")
                    .execute()
                    .getItems()))
        .containsExactly("b", "c");
    assertThat(
            names(
                core.listPodForAllNamespaces()
                    .fieldSelector("spec.nodeName!=")
                    .execute()
                    .getItems()))
        .containsExactly("a");
    assertThat(
            names(
                core.listPodForAllNamespaces()
                    .fieldSelector("status.phase!=Succeeded,status.phase!=Failed,metadata.name=c")
                    .execute()
                    .getItems()))
        .containsExactly("c");
    assertThat(core.listNamespacedPod("other").execute().getItems()).isEmpty();
    assertThat(core.listPodForAllNamespaces().execute().getMetadata().getResourceVersion())
        .isEqualTo(Long.toString(server.resourceVersion()));
  }

  @Test
  void watchStreamsChangesFromTheGivenResourceVersion() throws Exception {
    pod("a", Map.of());
    String rv = core.listNamespacedPod("default").execute().getMetadata().getResourceVersion();
    pod("b", Map.of());
    bind("a", "n1");
    core.deleteNamespacedPod("b", "default").execute();
    List<String> seen = new ArrayList<>();
    try (Watch<V1Pod> w =
        watch(
            core.listNamespacedPod("default")
                .watch(true)
                .resourceVersion(rv)
                .timeoutSeconds(5)
                .buildCall(null))) {
      for (int i = 0; i < 4; i++) {
        if (i == 3) {
          pod("c", Map.of());
        }
        Watch.Response<V1Pod> r = w.next();
        seen.add(
            r.type
                + " "
                + r.object.getMetadata().getName()
                + " "
                + (r.object.getSpec().getNodeName() == null
                    ? "-"
                    : r.object.getSpec().getNodeName()));
        assertThat(Long.parseLong(r.object.getMetadata().getResourceVersion()))
            .isGreaterThan(Long.parseLong(rv));
      }
    }
    assertThat(seen).containsExactly("ADDED b -", "MODIFIED a n1", "DELETED b -", "ADDED c -");
  }

  @Test
  void watchWithFieldSelectorReportsObjectsLeavingItAsDeleted() throws Exception {
    pod("a", Map.of());
    List<String> seen = new ArrayList<>();
    try (Watch<V1Pod> w =
        watch(
            core.listPodForAllNamespaces()
                .watch(true)
                .fieldSelector("spec.nodeName=")
                .timeoutSeconds(5)
                .buildCall(null))) {
      Watch.Response<V1Pod> r = w.next();
      seen.add(r.type + " " + r.object.getMetadata().getName());
      bind("a", "n1");
      r = w.next();
      seen.add(r.type + " " + r.object.getMetadata().getName());
    }
    assertThat(seen).containsExactly("ADDED a", "DELETED a");
  }

  @Test
  void bindingAnswers201WithAStatusAnd409WhenAlreadyBound() throws Exception {
    pod("a", Map.of());
    try (Response r = bindCall("a", "n1")) {
      assertThat(r.code()).isEqualTo(201);
      assertThat(r.body().string())
          .contains("\"kind\":\"Status\"")
          .contains("\"status\":\"Success\"");
    }
    V1Pod bound = core.readNamespacedPod("a", "default").execute();
    assertThat(bound.getSpec().getNodeName()).isEqualTo("n1");
    assertThat(bound.getStatus().getConditions())
        .extracting(V1PodCondition::getType, V1PodCondition::getStatus)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("PodScheduled", "True"));
    try (Response r = bindCall("a", "n2")) {
      assertThat(r.code()).isEqualTo(409);
      assertThat(r.body().string())
          .contains(
              "Operation cannot be fulfilled on pods/binding \\\"a\\\": pod a is already"
                  + " assigned to node \\\"n1\\\"");
    }
  }

  @Test
  void updateWithAStaleResourceVersionIsAConflict() throws Exception {
    V1Pod a = pod("a", Map.of());
    a.getMetadata().putLabelsItem("x", "1");
    V1Pod updated = core.replaceNamespacedPod("a", "default", a).execute();
    assertThat(updated.getMetadata().getLabels()).containsEntry("x", "1");
    a.getMetadata().putLabelsItem("x", "2");
    assertThatThrownBy(() -> core.replaceNamespacedPod("a", "default", a).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(409));
  }

  @Test
  void mergePatchReplacesListsAndRemovesNulls() throws Exception {
    pod("a", Map.of("x", "1", "y", "2"));
    assertThatThrownBy(() -> core.patchNamespacedPod("a", "default", new V1Patch("{}")).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(415));
    PatchUtils.patch(
        V1Pod.class,
        () ->
            core.patchNamespacedPod(
                    "a",
                    "default",
                    new V1Patch(
                        "{\"metadata\":{\"labels\":{\"x\":null}},\"spec\":{\"tolerations\":[{\"key\":\"k\"}]}}"))
                .buildCall(null),
        V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
        client);
    V1Pod patched =
        PatchUtils.patch(
            V1Pod.class,
            () ->
                core.patchNamespacedPod(
                        "a",
                        "default",
                        new V1Patch(
                            "{\"spec\":{\"tolerations\":[{\"key\":\"z\",\"operator\":\"Exists\"}]}}"))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            client);
    assertThat(patched.getMetadata().getLabels()).isEqualTo(Map.of("y", "2"));
    assertThat(patched.getSpec().getTolerations())
        .containsExactly(new V1Toleration().key("z").operator("Exists"));
  }

  @Test
  void strategicMergePatchOfStatusMergesConditionsByType() throws Exception {
    pod("a", Map.of());
    patchStatus("a", "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\"}]}}");
    V1Pod p =
        patchStatus(
            "a",
            "{\"status\":{\"$setElementOrder/conditions\":[{\"type\":"
                + "\"PodScheduled\"}],\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"False\","
                + "\"reason\":\"Unschedulable\"}],\"nominatedNodeName\":\"n1\"}}");
    p =
        patchStatus(
            "a",
            "{\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"message\":"
                + "\"m\"}]},\"spec\":{\"nodeName\":\"ignored\"}}");
    assertThat(p.getStatus().getConditions())
        .containsExactly(
            new V1PodCondition().type("Ready").status("False"),
            new V1PodCondition()
                .type("PodScheduled")
                .status("False")
                .reason("Unschedulable")
                .message("m"));
    assertThat(p.getStatus().getNominatedNodeName()).isEqualTo("n1");
    assertThat(p.getSpec().getNodeName()).isNull();
  }

  @Test
  void leasesSupportGetCreateAndOptimisticUpdate() throws Exception {
    CoordinationV1Api coord = new CoordinationV1Api(client);
    assertThatThrownBy(() -> coord.readNamespacedLease("l", "kube-system").execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(404));
    V1Lease lease =
        coord
            .createNamespacedLease(
                "kube-system",
                new V1Lease()
                    .metadata(new V1ObjectMeta().name("l"))
                    .spec(new V1LeaseSpec().holderIdentity("me")))
            .execute();
    assertThat(lease.getKind()).isEqualTo("Lease");
    assertThat(lease.getApiVersion()).isEqualTo("coordination.k8s.io/v1");
    V1Lease stale = coord.readNamespacedLease("l", "kube-system").execute();
    lease.getSpec().holderIdentity("you");
    assertThat(
            coord
                .replaceNamespacedLease("l", "kube-system", lease)
                .execute()
                .getSpec()
                .getHolderIdentity())
        .isEqualTo("you");
    assertThatThrownBy(() -> coord.replaceNamespacedLease("l", "kube-system", stale).execute())
        .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.getCode()).isEqualTo(409));
  }

  @Test
  void storesEventsPdbsPriorityClassesNodesAndNamespaces() throws Exception {
    core.createNamespacedEvent(
            "default",
            new CoreV1Event()
                .metadata(new V1ObjectMeta().generateName("p."))
                .involvedObject(new V1ObjectReference().kind("Pod").name("p"))
                .reason("Scheduled"))
        .execute();
    new EventsV1Api(client)
        .createNamespacedEvent(
            "default",
            new EventsV1Event()
                .metadata(new V1ObjectMeta().name("e"))
                .eventTime(OffsetDateTime.now())
                .reason("R"))
        .execute();
    new PolicyV1Api(client)
        .createNamespacedPodDisruptionBudget(
            "default",
            new V1PodDisruptionBudget()
                .metadata(new V1ObjectMeta().name("pdb"))
                .spec(new V1PodDisruptionBudgetSpec()))
        .execute();
    new SchedulingV1Api(client)
        .createPriorityClass(
            new V1PriorityClass().metadata(new V1ObjectMeta().name("high")).value(1000))
        .execute();
    core.createNode(new V1Node().metadata(new V1ObjectMeta().name("n1").uid("n1"))).execute();
    core.createNamespace(
            new io.kubernetes.client.openapi.models.V1Namespace()
                .metadata(new V1ObjectMeta().name("team")))
        .execute();

    assertThat(core.listEventForAllNamespaces().execute().getItems())
        .extracting(e -> e.getMetadata().getName())
        .singleElement()
        .asString()
        .startsWith("p.");
    assertThat(new EventsV1Api(client).listEventForAllNamespaces().execute().getItems())
        .extracting(EventsV1Event::getReason)
        .containsExactly("R");
    assertThat(
            new PolicyV1Api(client).listPodDisruptionBudgetForAllNamespaces().execute().getItems())
        .hasSize(1);
    assertThat(new SchedulingV1Api(client).listPriorityClass().execute().getItems())
        .extracting(V1PriorityClass::getValue)
        .containsExactly(1000);
    assertThat(core.readNamespace("team").execute().getMetadata().getLabels())
        .containsEntry("kubernetes.io/metadata.name", "team");
    V1Status deleted = core.deleteNode("n1").execute();
    assertThat(deleted.getStatus()).isEqualTo("Success");
    assertThat(core.listNode().execute().getItems()).isEmpty();
  }

  private Watch<V1Pod> watch(okhttp3.Call call) throws ApiException {
    return Watch.createWatch(client, call, new TypeToken<Watch.Response<V1Pod>>() {}.getType());
  }

  private V1Pod patchStatus(String name, String json) throws ApiException {
    return PatchUtils.patch(
        V1Pod.class,
        () -> core.patchNamespacedPodStatus(name, "default", new V1Patch(json)).buildCall(null),
        V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
        client);
  }

  private void bind(String pod, String node) throws Exception {
    try (Response r = bindCall(pod, node)) {
      assertThat(r.code()).isEqualTo(201);
    }
  }

  private Response bindCall(String pod, String node) throws Exception {
    return core.createNamespacedPodBinding(
            pod,
            "default",
            new V1Binding()
                .metadata(new V1ObjectMeta().name(pod))
                .target(new V1ObjectReference().kind("Node").name(node)))
        .buildCall(null)
        .execute();
  }

  private static List<String> names(List<V1Pod> pods) {
    return pods.stream().map(p -> p.getMetadata().getName()).toList();
  }
}
