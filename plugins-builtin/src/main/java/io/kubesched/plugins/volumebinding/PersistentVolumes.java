package io.kubesched.plugins.volumebinding;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1TopologySelectorLabelRequirement;
import io.kubernetes.client.openapi.models.V1TopologySelectorTerm;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeSelector;
import io.kubesched.plugins.helper.Volumes;
import java.math.BigDecimal;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * kube's PV helpers ({@code component-helpers/storage/volume}) shared by the binder and the
 * simulator's PV controller: matching a claim to the smallest fitting volume, PV node affinity,
 * class names and the binding annotations.
 */
public final class PersistentVolumes {
  /** Set on a claim once the PV controller finished binding it. */
  public static final String ANN_BIND_COMPLETED = "pv.kubernetes.io/bind-completed";

  /** Set on a PV or claim the PV controller bound. */
  public static final String ANN_BOUND_BY_CONTROLLER = "pv.kubernetes.io/bound-by-controller";

  /** Set by the scheduler on a claim to provision on a node. */
  public static final String ANN_SELECTED_NODE = "volume.kubernetes.io/selected-node";

  /** Set on a claim that a provisioner should provision. */
  public static final String ANN_STORAGE_PROVISIONER = "volume.kubernetes.io/storage-provisioner";

  /** The provisioner of classes without dynamic provisioning. */
  public static final String NO_PROVISIONER = "kubernetes.io/no-provisioner";

  private PersistentVolumes() {}

  /** Returns the PV's class: {@code spec.storageClassName} or the beta annotation, or "". */
  public static String volumeClass(V1PersistentVolume pv) {
    if (pv.getSpec() != null && pv.getSpec().getStorageClassName() != null) {
      return pv.getSpec().getStorageClassName();
    }
    Map<String, String> ann = pv.getMetadata() == null ? null : pv.getMetadata().getAnnotations();
    if (ann != null && ann.get("volume.beta.kubernetes.io/storage-class") != null) {
      return ann.get("volume.beta.kubernetes.io/storage-class");
    }
    return "";
  }

  /** Returns the claim's class, or "". */
  public static String claimClass(V1PersistentVolumeClaim pvc) {
    return Volumes.claimClass(pvc);
  }

  /** Returns the claim's storage request in bytes, 0 when it has none. */
  public static BigDecimal requested(V1PersistentVolumeClaim pvc) {
    if (pvc.getSpec() == null
        || pvc.getSpec().getResources() == null
        || pvc.getSpec().getResources().getRequests() == null) {
      return BigDecimal.ZERO;
    }
    Quantity q = pvc.getSpec().getResources().getRequests().get("storage");
    return q == null ? BigDecimal.ZERO : q.getNumber();
  }

  /** Returns the PV's storage capacity in bytes, 0 when it has none. */
  public static BigDecimal capacity(V1PersistentVolume pv) {
    if (pv.getSpec() == null || pv.getSpec().getCapacity() == null) {
      return BigDecimal.ZERO;
    }
    Quantity q = pv.getSpec().getCapacity().get("storage");
    return q == null ? BigDecimal.ZERO : q.getNumber();
  }

  /** Returns whether the PV's claim reference names this claim (and its UID, when set). */
  public static boolean isBoundToClaim(V1PersistentVolume pv, V1PersistentVolumeClaim pvc) {
    V1ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
    if (ref == null) {
      return false;
    }
    if (!Objects.equals(ref.getName(), pvc.getMetadata().getName())
        || !Objects.equals(ref.getNamespace(), pvc.getMetadata().getNamespace())) {
      return false;
    }
    return ref.getUid() == null || Objects.equals(ref.getUid(), pvc.getMetadata().getUid());
  }

  /**
   * Returns whether the PV's required node affinity admits the node (kube's {@code
   * CheckNodeAffinity}); a PV without one fits every node.
   */
  public static boolean nodeAffinityFits(
      V1PersistentVolume pv, String nodeName, Map<String, String> nodeLabels) {
    if (pv.getSpec() == null
        || pv.getSpec().getNodeAffinity() == null
        || pv.getSpec().getNodeAffinity().getRequired() == null) {
      return true;
    }
    NodeSelector sel = NodeSelector.compile(pv.getSpec().getNodeAffinity().getRequired());
    return sel.parseErrors().isEmpty() && sel.matches(nodeName, nodeLabels);
  }

  /**
   * Returns the volume kube's {@code FindMatchingVolume} picks for the claim: one pre-bound to it
   * (if its affinity fits), else the smallest available one of the claim's class whose size, volume
   * mode, selector, node affinity and (on the scheduler path) access modes fit; {@code null} when
   * none does.
   *
   * @param nodeName the node on the scheduler's path, {@code null} on the PV controller's
   * @param excluded names of volumes already chosen for other claims
   * @param delayBinding whether the claim's class binds on first consumer
   */
  public static V1PersistentVolume findMatchingVolume(
      V1PersistentVolumeClaim claim,
      Collection<V1PersistentVolume> volumes,
      String nodeName,
      Map<String, String> nodeLabels,
      Set<String> excluded,
      boolean delayBinding) {
    BigDecimal requested = requested(claim);
    String requestedClass = claimClass(claim);
    V1LabelSelector rawSelector = claim.getSpec() == null ? null : claim.getSpec().getSelector();
    LabelSelector selector = rawSelector == null ? null : LabelSelector.compile(rawSelector);
    V1PersistentVolume smallest = null;
    BigDecimal smallestQty = null;
    for (V1PersistentVolume volume : volumes) {
      if (excluded.contains(volume.getMetadata().getName())) {
        continue;
      }
      if (volume.getSpec().getClaimRef() != null && !isBoundToClaim(volume, claim)) {
        continue;
      }
      BigDecimal qty = capacity(volume);
      if (qty.compareTo(requested) < 0) {
        continue;
      }
      if (volumeModeMismatch(claim, volume)) {
        continue;
      }
      if (volume.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      boolean affinityValid = nodeName == null || nodeAffinityFits(volume, nodeName, nodeLabels);
      if (isBoundToClaim(volume, claim)) {
        return affinityValid ? volume : null;
      }
      if (nodeName == null && delayBinding) {
        continue;
      }
      String phase = volume.getStatus() == null ? null : volume.getStatus().getPhase();
      if (!"Available".equals(phase)) {
        continue;
      }
      if (selector != null) {
        Map<String, String> labels = volume.getMetadata().getLabels();
        if (!selector.matches(labels == null ? Map.of() : labels)) {
          continue;
        }
      }
      if (!volumeClass(volume).equals(requestedClass)) {
        continue;
      }
      if (!affinityValid) {
        continue;
      }
      if (nodeName != null && !accessModesFit(claim, volume)) {
        continue;
      }
      if (smallest == null || smallestQty.compareTo(qty) > 0) {
        smallest = volume;
        smallestQty = qty;
      }
    }
    return smallest;
  }

  private static boolean volumeModeMismatch(V1PersistentVolumeClaim claim, V1PersistentVolume pv) {
    String want = claim.getSpec() == null ? null : claim.getSpec().getVolumeMode();
    String have = pv.getSpec().getVolumeMode();
    return !Objects.equals(want == null ? "Filesystem" : want, have == null ? "Filesystem" : have);
  }

  private static boolean accessModesFit(V1PersistentVolumeClaim claim, V1PersistentVolume pv) {
    List<String> want = claim.getSpec() == null ? null : claim.getSpec().getAccessModes();
    List<String> have = pv.getSpec().getAccessModes();
    if (want == null || want.isEmpty()) {
      return true;
    }
    return have != null && have.containsAll(want);
  }

  /**
   * Returns whether the node's labels satisfy the class's allowed topologies (kube's {@code
   * MatchTopologySelectorTerms}); no terms admit every node.
   */
  public static boolean topologyAllows(
      List<V1TopologySelectorTerm> terms, Map<String, String> nodeLabels) {
    if (terms == null || terms.isEmpty()) {
      return true;
    }
    for (V1TopologySelectorTerm t : terms) {
      boolean all = true;
      if (t.getMatchLabelExpressions() != null) {
        for (V1TopologySelectorLabelRequirement r : t.getMatchLabelExpressions()) {
          String v = nodeLabels.get(r.getKey());
          if (v == null || r.getValues() == null || !r.getValues().contains(v)) {
            all = false;
            break;
          }
        }
      }
      if (all) {
        return true;
      }
    }
    return false;
  }
}
