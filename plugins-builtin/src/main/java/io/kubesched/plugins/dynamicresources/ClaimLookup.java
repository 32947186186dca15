package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1PodResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubesched.framework.ClusterClient;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds a pod's ResourceClaims as kube's {@code resourceclaim.Name}, {@code IsForPod} and the
 * plugin's {@code foreachPodResourceClaim} do, with kube's error texts.
 */
final class ClaimLookup {
  /** A reason the pod's claims are not usable yet (kube returns it as an unschedulable status). */
  static final class ClaimException extends Exception {
    ClaimException(String message) {
      super(message);
    }
  }

  /** kube's {@code ResourceClaimReservedForMaxSize}. */
  static final int RESERVED_FOR_MAX_SIZE = 256;

  private ClaimLookup() {}

  /** Returns the pod's claims in {@code spec.resourceClaims} order (skipping intentional gaps). */
  static List<ResourceV1ResourceClaim> claims(ClusterClient client, V1Pod pod)
      throws ClaimException {
    List<ResourceV1ResourceClaim> out = new ArrayList<>();
    if (pod.getSpec() == null || pod.getSpec().getResourceClaims() == null) {
      return out;
    }
    String ns = pod.getMetadata().getNamespace();
    String podRef = "pod \"" + ns + "/" + pod.getMetadata().getName() + "\"";
    for (V1PodResourceClaim rc : pod.getSpec().getResourceClaims()) {
      String claimName;
      boolean mustCheckOwner;
      if (rc.getResourceClaimName() != null) {
        claimName = rc.getResourceClaimName();
        mustCheckOwner = false;
      } else if (rc.getResourceClaimTemplateName() != null) {
        V1PodResourceClaimStatus status = statusFor(pod, rc.getName());
        if (status == null) {
          throw new ClaimException(podRef + ": ResourceClaim not created yet");
        }
        claimName = status.getResourceClaimName();
        mustCheckOwner = true;
        if (claimName == null) {
          continue;
        }
      } else {
        throw new ClaimException(
            podRef
                + ", spec.resourceClaim \""
                + rc.getName()
                + "\": none of the supported fields are set");
      }
      ResourceV1ResourceClaim claim =
          client
              .getResourceClaim(ns, claimName)
              .orElseThrow(
                  () ->
                      new ClaimException(
                          "resourceclaim.resource.k8s.io \"" + claimName + "\" not found"));
      if (claim.getMetadata().getDeletionTimestamp() != null) {
        throw new ClaimException("resourceclaim \"" + claimName + "\" is being deleted");
      }
      if (mustCheckOwner && !isForPod(pod, claim)) {
        throw new ClaimException(
            "ResourceClaim "
                + claim.getMetadata().getNamespace()
                + "/"
                + claimName
                + " was not created for pod "
                + ns
                + "/"
                + pod.getMetadata().getName()
                + " (pod is not owner)");
      }
      out.add(claim);
    }
    return out;
  }

  private static V1PodResourceClaimStatus statusFor(V1Pod pod, String name) {
    if (pod.getStatus() == null || pod.getStatus().getResourceClaimStatuses() == null) {
      return null;
    }
    for (V1PodResourceClaimStatus s : pod.getStatus().getResourceClaimStatuses()) {
      if (name.equals(s.getName())) {
        return s;
      }
    }
    return null;
  }

  /** kube's {@code IsForPod}: same namespace and controlled by the pod. */
  static boolean isForPod(V1Pod pod, ResourceV1ResourceClaim claim) {
    if (!java.util.Objects.equals(
        claim.getMetadata().getNamespace(), pod.getMetadata().getNamespace())) {
      return false;
    }
    List<V1OwnerReference> owners = claim.getMetadata().getOwnerReferences();
    if (owners == null) {
      return false;
    }
    for (V1OwnerReference o : owners) {
      if (Boolean.TRUE.equals(o.getController())
          && o.getUid() != null
          && o.getUid().equals(pod.getMetadata().getUid())) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code IsReservedForPod}. */
  static boolean isReservedFor(String podUid, ResourceV1ResourceClaim claim) {
    if (claim.getStatus() == null || claim.getStatus().getReservedFor() == null) {
      return false;
    }
    for (V1ResourceClaimConsumerReference r : claim.getStatus().getReservedFor()) {
      if (podUid.equals(r.getUid())) {
        return true;
      }
    }
    return false;
  }

  /** kube's {@code CanBeReserved}: fewer than 256 consumers. */
  static boolean canBeReserved(ResourceV1ResourceClaim claim) {
    return claim.getStatus() == null
        || claim.getStatus().getReservedFor() == null
        || claim.getStatus().getReservedFor().size() < RESERVED_FOR_MAX_SIZE;
  }

  static boolean allocated(ResourceV1ResourceClaim claim) {
    return claim.getStatus() != null && claim.getStatus().getAllocation() != null;
  }
}
