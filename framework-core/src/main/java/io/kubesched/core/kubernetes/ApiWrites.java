package io.kubesched.core.kubernetes;

import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Binding;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodCondition;
import io.kubernetes.client.openapi.models.V1Status;
import io.kubernetes.client.util.PatchUtils;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.framework.SchedulerConstants;
import io.kubesched.framework.SchedulingException;
import java.io.IOException;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import okhttp3.Call;
import okhttp3.Response;

/**
 * The writes {@link KubernetesCluster} makes through the API: bindings, pod deletions, pod status
 * patches (conditions and the nominated node) and node annotation patches, with the server's
 * refusals turned into {@link ClusterException}s (404, 409, 403, 422) or {@link
 * SchedulingException}s (anything else, transport errors).
 */
final class ApiWrites {
  private static final String POD_SCHEDULED = SchedulerConstants.POD_SCHEDULED;

  private final ApiClient client;
  private final CoreV1Api core;
  private final Clock clock;
  private final Function<V1Pod, V1Pod> latest;

  /**
   * @param client the API client
   * @param clock stamps conditions' transition times
   * @param latest the latest version the informer saw of a pod (or the pod itself)
   */
  ApiWrites(ApiClient client, Clock clock, Function<V1Pod, V1Pod> latest) {
    this.client = client;
    this.core = new CoreV1Api(client);
    this.clock = clock;
    this.latest = latest;
  }

  void bind(V1Pod pod, String nodeName) {
    V1ObjectMeta meta = pod.getMetadata();
    V1Binding binding =
        new V1Binding()
            .metadata(
                new V1ObjectMeta()
                    .name(meta.getName())
                    .namespace(meta.getNamespace())
                    .uid(meta.getUid()))
            .target(new V1ObjectReference().kind("Node").name(nodeName));
    try {
      // The server answers a v1.Status that the generated decoder would reject: judge by code.
      call(
          core.createNamespacedPodBinding(meta.getName(), meta.getNamespace(), binding)
              .buildCall(null),
          "bind pod " + meta.getNamespace() + "/" + meta.getName());
    } catch (ApiException e) {
      throw new SchedulingException("cannot bind pod " + key(pod) + ": " + e.getMessage(), e);
    }
  }

  V1Node patchNodeAnnotations(String nodeName, Map<String, String> annotations) {
    Map<String, Object> body =
        Map.of("metadata", Map.of("annotations", new LinkedHashMap<>(annotations)));
    String json = client.getJSON().getGson().newBuilder().serializeNulls().create().toJson(body);
    try {
      return PatchUtils.patch(
          V1Node.class,
          () -> core.patchNode(nodeName, new V1Patch(json)).buildCall(null),
          V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
          client);
    } catch (ApiException e) {
      if (e.getCode() == 0) {
        throw new SchedulingException(
            "cannot patch the annotations of node " + nodeName + ": " + e.getMessage(), e);
      }
      throw refusal(e.getCode(), e.getResponseBody(), "patch the annotations of node " + nodeName);
    }
  }

  void deletePod(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    try {
      call(
          core.deleteNamespacedPod(meta.getName(), meta.getNamespace()).buildCall(null),
          "delete pod " + key(pod));
    } catch (ClusterException e) {
      if (e.reason() != ClusterException.Reason.NOT_FOUND) {
        throw e;
      }
    } catch (ApiException e) {
      throw new SchedulingException("cannot delete pod " + key(pod) + ": " + e.getMessage(), e);
    }
  }

  void updatePodCondition(V1Pod pod, V1PodCondition condition) {
    V1Pod current = latest.apply(pod);
    V1PodCondition old = condition(current, condition.getType());
    if (old != null
        && Objects.equals(old.getStatus(), condition.getStatus())
        && Objects.equals(old.getReason(), condition.getReason())
        && Objects.equals(old.getMessage(), condition.getMessage())) {
      return;
    }
    patchStatus(pod, Map.of("conditions", List.of(conditionPatch(old, condition))));
  }

  void setNominatedNodeName(V1Pod pod, String nodeName) {
    V1Pod current = latest.apply(pod);
    String have = current.getStatus() == null ? null : current.getStatus().getNominatedNodeName();
    String want = nodeName == null || nodeName.isEmpty() ? null : nodeName;
    if (Objects.equals(want, have == null || have.isEmpty() ? null : have)) {
      return;
    }
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("nominatedNodeName", want);
    patchStatus(pod, status);
  }

  void patchPodScheduledCondition(
      V1Pod pod, String reason, String message, String nominatedNodeName) {
    V1Pod current = latest.apply(pod);
    V1PodCondition old = condition(current, POD_SCHEDULED);
    V1PodCondition want =
        new V1PodCondition().type(POD_SCHEDULED).status("False").reason(reason).message(message);
    Map<String, Object> status = new LinkedHashMap<>();
    if (old == null
        || !"False".equals(old.getStatus())
        || !Objects.equals(old.getReason(), reason)
        || !Objects.equals(old.getMessage(), message)) {
      status.put("conditions", List.of(conditionPatch(old, want)));
    }
    if (nominatedNodeName != null) {
      String have = current.getStatus() == null ? null : current.getStatus().getNominatedNodeName();
      if (!nominatedNodeName.equals(have == null ? "" : have)) {
        status.put("nominatedNodeName", nominatedNodeName.isEmpty() ? null : nominatedNodeName);
      }
    }
    if (status.isEmpty()) {
      return;
    }
    try {
      patchStatus(pod, status);
    } catch (ClusterException e) {
      if (e.reason() != ClusterException.Reason.NOT_FOUND) {
        throw e;
      }
    }
  }

  private Map<String, Object> conditionPatch(V1PodCondition old, V1PodCondition c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("type", c.getType());
    m.put("status", c.getStatus());
    if (c.getReason() != null) {
      m.put("reason", c.getReason());
    }
    if (c.getMessage() != null) {
      m.put("message", c.getMessage());
    }
    OffsetDateTime transition =
        c.getLastTransitionTime() != null
            ? c.getLastTransitionTime()
            : old != null
                    && Objects.equals(old.getStatus(), c.getStatus())
                    && old.getLastTransitionTime() != null
                ? old.getLastTransitionTime()
                : OffsetDateTime.ofInstant(
                    clock.instant().truncatedTo(ChronoUnit.SECONDS), ZoneOffset.UTC);
    m.put("lastTransitionTime", transition.toInstant().truncatedTo(ChronoUnit.SECONDS).toString());
    return m;
  }

  private static V1PodCondition condition(V1Pod pod, String type) {
    if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
      return null;
    }
    for (V1PodCondition c : pod.getStatus().getConditions()) {
      if (type.equals(c.getType())) {
        return c;
      }
    }
    return null;
  }

  private void patchStatus(V1Pod pod, Map<String, Object> status) {
    Map<String, Object> body = Map.of("status", status);
    String json = client.getJSON().getGson().newBuilder().serializeNulls().create().toJson(body);
    V1ObjectMeta meta = pod.getMetadata();
    try {
      PatchUtils.patch(
          V1Pod.class,
          () ->
              core.patchNamespacedPodStatus(meta.getName(), meta.getNamespace(), new V1Patch(json))
                  .buildCall(null),
          V1Patch.PATCH_FORMAT_STRATEGIC_MERGE_PATCH,
          client);
    } catch (ApiException e) {
      if (e.getCode() == 0) {
        throw new SchedulingException(
            "cannot patch the status of pod " + key(pod) + ": " + e.getMessage(), e);
      }
      throw refusal(e.getCode(), e.getResponseBody(), "patch the status of pod " + key(pod));
    }
  }

  /** Executes {@code call}; a non-2xx answer becomes a {@link ClusterException}. */
  private void call(Call call, String what) {
    try (Response r = call.execute()) {
      if (r.isSuccessful()) {
        return;
      }
      throw refusal(r.code(), r.body() == null ? "" : r.body().string(), what);
    } catch (IOException e) {
      throw new SchedulingException("cannot " + what + ": " + e.getMessage(), e);
    }
  }

  RuntimeException refusal(int code, String body, String what) {
    String message = body == null ? "" : body;
    try {
      V1Status s = client.getJSON().getGson().fromJson(message, V1Status.class);
      if (s != null && s.getMessage() != null) {
        message = s.getMessage();
      }
    } catch (RuntimeException e) {
      // not a Status: keep the raw body
    }
    ClusterException.Reason reason =
        switch (code) {
          case 404 -> ClusterException.Reason.NOT_FOUND;
          case 409 -> ClusterException.Reason.CONFLICT;
          case 403 -> ClusterException.Reason.FORBIDDEN;
          case 422 -> ClusterException.Reason.INVALID;
          default -> null;
        };
    if (reason == null) {
      return new SchedulingException("cannot " + what + ": HTTP " + code + ": " + message);
    }
    return new ClusterException(reason, message);
  }

  private static String key(V1Pod pod) {
    return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
  }
}
