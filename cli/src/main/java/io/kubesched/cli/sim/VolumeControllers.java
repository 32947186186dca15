package io.kubesched.cli.sim;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1CSIPersistentVolumeSource;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimStatus;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeStatus;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1TopologySelectorLabelRequirement;
import io.kubernetes.client.openapi.models.V1TopologySelectorTerm;
import io.kubernetes.client.openapi.models.V1VolumeNodeAffinity;
import io.kubesched.core.cluster.ClusterListener;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.framework.EventResource;
import io.kubesched.plugins.volumebinding.PersistentVolumes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The simulator's stand-in for kube's PV controller and external provisioners, deterministic and
 * synchronous: it completes bindings the scheduler starts (a PV whose {@code claimRef} names a
 * claim: the claim gets {@code volumeName}, {@code pv.kubernetes.io/bind-completed} and phase
 * {@code Bound}), binds Immediate claims to their smallest matching PV or provisions one, and
 * provisions a PV for a claim the scheduler marked with {@code volume.kubernetes.io/selected-node}
 * (named {@code pvc-<claim uid>}, of the claim's size, class and access modes, as a CSI volume of
 * the class's provisioner, with node affinity on the selected node's values of the class's {@code
 * allowedTopologies} keys, else of its zone, else of its hostname).
 */
final class VolumeControllers implements ClusterListener {
  private final InMemoryCluster cluster;

  VolumeControllers(InMemoryCluster cluster) {
    this.cluster = cluster;
  }

  /** Completes the bindings and binds the Immediate claims present at the start. */
  void syncAll() {
    for (V1PersistentVolumeClaim c : cluster.listPersistentVolumeClaims(null)) {
      syncClaim(c);
    }
  }

  @Override
  public void onStorageChange(String resource, int actionType, Object oldObj, Object newObj) {
    if (newObj instanceof V1PersistentVolume pv
        && EventResource.PERSISTENT_VOLUME.equals(resource)) {
      syncVolume(pv);
    } else if (newObj instanceof V1PersistentVolumeClaim pvc) {
      syncClaim(pvc);
    }
  }

  private void syncVolume(V1PersistentVolume pv) {
    V1ObjectReference ref = pv.getSpec() == null ? null : pv.getSpec().getClaimRef();
    if (ref == null) {
      return;
    }
    cluster
        .getPersistentVolumeClaim(ref.getNamespace(), ref.getName())
        .ifPresent(
            c -> {
              if (!isBound(c)) {
                completeBinding(c, pv);
              }
            });
  }

  private void syncClaim(V1PersistentVolumeClaim c) {
    if (isBound(c) || c.getMetadata().getDeletionTimestamp() != null) {
      return;
    }
    String volumeName = c.getSpec() == null ? null : c.getSpec().getVolumeName();
    if (volumeName != null && !volumeName.isEmpty()) {
      cluster.getPersistentVolume(volumeName).ifPresent(pv -> completeBinding(c, pv));
      return;
    }
    Map<String, String> ann = c.getMetadata().getAnnotations();
    String selected = ann == null ? null : ann.get(PersistentVolumes.ANN_SELECTED_NODE);
    Optional<V1StorageClass> sc = cluster.getStorageClass(PersistentVolumes.claimClass(c));
    if (selected != null) {
      if (sc.isPresent()) {
        provision(c, sc.get(), cluster.getNode(selected).orElse(null));
      }
      return;
    }
    boolean delay =
        sc.isPresent() && "WaitForFirstConsumer".equals(sc.get().getVolumeBindingMode());
    if (delay) {
      return;
    }
    // a claim bound to a PV that names it (pre-bound PV)
    List<V1PersistentVolume> pvs = cluster.listPersistentVolumes();
    V1PersistentVolume match =
        PersistentVolumes.findMatchingVolume(c, pvs, null, Map.of(), Set.of(), false);
    if (match != null) {
      completeBinding(c, match);
    } else if (sc.isPresent()) {
      provision(c, sc.get(), null);
    }
  }

  private static boolean isBound(V1PersistentVolumeClaim c) {
    Map<String, String> ann = c.getMetadata().getAnnotations();
    return c.getSpec() != null
        && c.getSpec().getVolumeName() != null
        && !c.getSpec().getVolumeName().isEmpty()
        && ann != null
        && ann.containsKey(PersistentVolumes.ANN_BIND_COMPLETED);
  }

  private void provision(V1PersistentVolumeClaim c, V1StorageClass sc, V1Node node) {
    String provisioner = sc.getProvisioner();
    if (provisioner == null
        || provisioner.isEmpty()
        || provisioner.equals(PersistentVolumes.NO_PROVISIONER)) {
      return;
    }
    String name = "pvc-" + c.getMetadata().getUid();
    if (cluster.getPersistentVolume(name).isPresent()) {
      return;
    }
    Map<String, Quantity> capacity = new LinkedHashMap<>();
    Quantity request =
        c.getSpec().getResources() == null || c.getSpec().getResources().getRequests() == null
            ? null
            : c.getSpec().getResources().getRequests().get("storage");
    if (request != null) {
      capacity.put("storage", request);
    }
    V1PersistentVolumeSpec spec =
        new V1PersistentVolumeSpec()
            .capacity(capacity)
            .accessModes(c.getSpec().getAccessModes())
            .storageClassName(sc.getMetadata().getName())
            .volumeMode(c.getSpec().getVolumeMode())
            .persistentVolumeReclaimPolicy(sc.getReclaimPolicy())
            .csi(new V1CSIPersistentVolumeSource().driver(provisioner).volumeHandle(name))
            .claimRef(claimRef(c));
    if (node != null) {
      V1NodeSelectorTerm term = topologyTerm(sc, node);
      if (term != null) {
        spec.nodeAffinity(
            new V1VolumeNodeAffinity()
                .required(new V1NodeSelector().nodeSelectorTerms(List.of(term))));
      }
    }
    V1PersistentVolume pv =
        new V1PersistentVolume()
            .apiVersion("v1")
            .kind("PersistentVolume")
            .metadata(
                new V1ObjectMeta()
                    .name(name)
                    .putAnnotationsItem("pv.kubernetes.io/provisioned-by", provisioner))
            .spec(spec)
            .status(new V1PersistentVolumeStatus().phase("Bound"));
    V1PersistentVolume created = cluster.create(pv);
    completeBinding(c, created);
  }

  private static V1NodeSelectorTerm topologyTerm(V1StorageClass sc, V1Node node) {
    Map<String, String> labels =
        node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    Set<String> keys = new HashSet<>();
    List<String> ordered = new ArrayList<>();
    if (sc.getAllowedTopologies() != null) {
      for (V1TopologySelectorTerm t : sc.getAllowedTopologies()) {
        if (t.getMatchLabelExpressions() != null) {
          for (V1TopologySelectorLabelRequirement r : t.getMatchLabelExpressions()) {
            if (keys.add(r.getKey())) {
              ordered.add(r.getKey());
            }
          }
        }
      }
    }
    if (ordered.isEmpty()) {
      if (labels.containsKey("topology.kubernetes.io/zone")) {
        ordered.add("topology.kubernetes.io/zone");
      } else {
        ordered.add("kubernetes.io/hostname");
      }
    }
    V1NodeSelectorTerm term = new V1NodeSelectorTerm();
    for (String k : ordered) {
      String v = labels.get(k);
      if (v == null && k.equals("kubernetes.io/hostname")) {
        v = node.getMetadata().getName();
      }
      if (v == null) {
        continue;
      }
      term.addMatchExpressionsItem(
          new V1NodeSelectorRequirement().key(k).operator("In").values(List.of(v)));
    }
    return term.getMatchExpressions() == null ? null : term;
  }

  private static V1ObjectReference claimRef(V1PersistentVolumeClaim c) {
    return new V1ObjectReference()
        .apiVersion("v1")
        .kind("PersistentVolumeClaim")
        .namespace(c.getMetadata().getNamespace())
        .name(c.getMetadata().getName())
        .uid(c.getMetadata().getUid());
  }

  /** Binds the claim and the PV to each other as the PV controller does. */
  private void completeBinding(V1PersistentVolumeClaim c, V1PersistentVolume pv) {
    V1ObjectReference ref = pv.getSpec().getClaimRef();
    if (ref != null
        && !(Objects.equals(ref.getName(), c.getMetadata().getName())
            && Objects.equals(ref.getNamespace(), c.getMetadata().getNamespace()))) {
      return; // bound to another claim
    }
    if (ref == null || !"Bound".equals(pv.getStatus() == null ? null : pv.getStatus().getPhase())) {
      V1PersistentVolume pvCopy = ObjectCopier.deepCopy(pv);
      pvCopy.getSpec().claimRef(claimRef(c));
      if (pvCopy.getStatus() == null) {
        pvCopy.setStatus(new V1PersistentVolumeStatus());
      }
      pvCopy.getStatus().setPhase("Bound");
      cluster.updatePersistentVolume(pvCopy);
    }
    V1PersistentVolumeClaim copy =
        ObjectCopier.deepCopy(
            cluster
                .getPersistentVolumeClaim(c.getMetadata().getNamespace(), c.getMetadata().getName())
                .orElse(c));
    copy.getSpec().setVolumeName(pv.getMetadata().getName());
    copy.getMetadata().putAnnotationsItem(PersistentVolumes.ANN_BIND_COMPLETED, "yes");
    if (copy.getStatus() == null) {
      copy.setStatus(new V1PersistentVolumeClaimStatus());
    }
    copy.getStatus().setPhase("Bound");
    copy.getStatus().setAccessModes(pv.getSpec().getAccessModes());
    copy.getStatus().setCapacity(pv.getSpec().getCapacity());
    cluster.updatePersistentVolumeClaim(copy);
  }
}
