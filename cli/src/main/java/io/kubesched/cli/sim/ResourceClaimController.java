package io.kubesched.cli.sim;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.InMemoryCluster;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The simulator's stand-in for kube's resourceclaim controller: for each {@code
 * spec.resourceClaims} entry of a pod that names a ResourceClaimTemplate, it creates a claim from
 * the template, owned by the pod (controller reference), named as the controller's {@code
 * generateName} names it, {@code <pod>-<claim>-<5 characters>} (the pod and claim names cut to 28
 * characters each; the suffix derived from the pod's namespace, name and claim so runs are
 * reproducible), and records it in the pod's {@code status.resourceClaimStatuses}. A template that
 * does not exist creates nothing: the pod stays unschedulable with kube's "ResourceClaim not
 * created yet". Pods without a UID get a deterministic one (the owner reference needs it).
 *
 * <p>As a {@link ClusterListener} it also does the controller's cleanup when a pod goes away
 * (preemption): the pod leaves every claim's {@code reservedFor}; a claim generated for the pod is
 * deleted; any other claim left without consumers is deallocated (allocation and finalizer
 * removed), so its devices are free again.
 */
final class ResourceClaimController implements ClusterListener {
  private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";

  private final InMemoryCluster cluster;

  ResourceClaimController(InMemoryCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public void onPodDelete(V1Pod pod) {
    String uid = pod.getMetadata().getUid();
    String ns = pod.getMetadata().getNamespace();
    for (ResourceV1ResourceClaim claim : cluster.listResourceClaims(ns)) {
      boolean owned =
          uid != null
              && claim.getMetadata().getOwnerReferences() != null
              && claim.getMetadata().getOwnerReferences().stream()
                  .anyMatch(o -> Boolean.TRUE.equals(o.getController()) && uid.equals(o.getUid()));
      if (owned) {
        cluster.delete(ResourceV1ResourceClaim.class, ns, claim.getMetadata().getName());
        continue;
      }
      V1ResourceClaimStatus status = claim.getStatus();
      if (status == null || status.getReservedFor() == null) {
        continue;
      }
      List<V1ResourceClaimConsumerReference> rest = new ArrayList<>();
      for (V1ResourceClaimConsumerReference r : status.getReservedFor()) {
        boolean same =
            uid != null ? uid.equals(r.getUid()) : pod.getMetadata().getName().equals(r.getName());
        if (!same) {
          rest.add(r);
        }
      }
      if (rest.size() == status.getReservedFor().size()) {
        continue;
      }
      V1ObjectMeta meta = new V1ObjectMeta().name(claim.getMetadata().getName()).namespace(ns);
      List<String> finalizers =
          claim.getMetadata().getFinalizers() == null
              ? new ArrayList<>()
              : new ArrayList<>(claim.getMetadata().getFinalizers());
      V1ResourceClaimStatus next = new V1ResourceClaimStatus().devices(status.getDevices());
      if (rest.isEmpty()) {
        finalizers.remove("resource.kubernetes.io/delete-protection");
      } else {
        next.allocation(status.getAllocation()).reservedFor(rest);
      }
      meta.setFinalizers(finalizers.isEmpty() ? null : finalizers);
      cluster.updateResourceClaimStatus(
          new ResourceV1ResourceClaim().metadata(meta).spec(claim.getSpec()).status(next));
    }
  }

  /** Creates the template claims of {@code pod} (before the pod is created). */
  static void createClaims(InMemoryCluster cluster, V1Pod pod) {
    if (pod.getSpec() == null || pod.getSpec().getResourceClaims() == null) {
      return;
    }
    V1ObjectMeta meta = pod.getMetadata();
    String ns = meta.getNamespace() == null ? "default" : meta.getNamespace();
    for (V1PodResourceClaim rc : pod.getSpec().getResourceClaims()) {
      if (rc.getResourceClaimTemplateName() == null || hasStatus(pod, rc.getName())) {
        continue;
      }
      Optional<V1ResourceClaimTemplate> template =
          cluster.get(V1ResourceClaimTemplate.class, ns, rc.getResourceClaimTemplateName());
      if (template.isEmpty()) {
        continue;
      }
      if (meta.getUid() == null || meta.getUid().isEmpty()) {
        meta.setUid(uuid("pod/" + ns + "/" + meta.getName()));
      }
      String name = generatedName(ns, meta.getName(), rc.getName());
      V1ObjectMeta tm = template.get().getSpec().getMetadata();
      ResourceV1ResourceClaim claim =
          new ResourceV1ResourceClaim()
              .apiVersion("resource.k8s.io/v1")
              .kind("ResourceClaim")
              .metadata(
                  new V1ObjectMeta()
                      .name(name)
                      .namespace(ns)
                      .uid(uuid("resourceclaim/" + ns + "/" + name))
                      .labels(tm == null ? null : tm.getLabels())
                      .annotations(tm == null ? null : tm.getAnnotations())
                      .putAnnotationsItem("resource.kubernetes.io/pod-claim-name", rc.getName())
                      .addOwnerReferencesItem(
                          new V1OwnerReference()
                              .apiVersion("v1")
                              .kind("Pod")
                              .name(meta.getName())
                              .uid(meta.getUid())
                              .controller(true)
                              .blockOwnerDeletion(true)))
              .spec(template.get().getSpec().getSpec());
      cluster.create(claim);
      if (pod.getStatus() == null) {
        pod.setStatus(new V1PodStatus());
      }
      pod.getStatus()
          .addResourceClaimStatusesItem(
              new V1PodResourceClaimStatus().name(rc.getName()).resourceClaimName(name));
    }
  }

  private static boolean hasStatus(V1Pod pod, String name) {
    return pod.getStatus() != null
        && pod.getStatus().getResourceClaimStatuses() != null
        && pod.getStatus().getResourceClaimStatuses().stream()
            .anyMatch(s -> name.equals(s.getName()));
  }

  /** kube's generateName for template claims, with a reproducible 5-character suffix. */
  static String generatedName(String namespace, String podName, String claimName) {
    String base = cut(podName) + "-" + cut(claimName) + "-";
    long h =
        UUID.nameUUIDFromBytes(
                (namespace + "/" + podName + "/" + claimName).getBytes(StandardCharsets.UTF_8))
            .getMostSignificantBits();
    StringBuilder sb = new StringBuilder(base);
    for (int i = 0; i < 5; i++) {
      sb.append(ALPHANUMS.charAt((int) Math.floorMod(h, ALPHANUMS.length())));
      h /= ALPHANUMS.length();
    }
    return sb.toString();
  }

  private static String cut(String s) {
    return s.length() > 28 ? s.substring(0, 28) : s;
  }

  private static String uuid(String seed) {
    return UUID.nameUUIDFromBytes(seed.getBytes(StandardCharsets.UTF_8)).toString();
  }
}
