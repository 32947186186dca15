package io.kubesched.plugins.volumebinding;

import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubesched.framework.StateData;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What {@link VolumeBinding} keeps in the cycle state: the pod's bound and WaitForFirstConsumer
 * claims and the PVs of their classes (from PreFilter), the bindings each node allows (from Filter,
 * which runs on many nodes at once) and whether Reserve found everything bound.
 */
final class VolumeBindingState implements StateData {
  /** A static PV chosen for a claim. */
  record Binding(V1PersistentVolume pv, V1PersistentVolumeClaim pvc) {}

  /** The bindings and provisions a node allows. */
  record PodVolumes(List<Binding> staticBindings, List<V1PersistentVolumeClaim> provisions) {}

  private final List<V1PersistentVolumeClaim> boundClaims;
  private final List<V1PersistentVolumeClaim> delayedClaims;
  private final Map<String, List<V1PersistentVolume>> volumesByClass;
  private final Map<String, PodVolumes> podVolumesByNode = new ConcurrentHashMap<>();
  private volatile boolean allBound;

  VolumeBindingState(
      List<V1PersistentVolumeClaim> boundClaims,
      List<V1PersistentVolumeClaim> delayedClaims,
      Map<String, List<V1PersistentVolume>> volumesByClass) {
    this.boundClaims = List.copyOf(boundClaims);
    this.delayedClaims = List.copyOf(delayedClaims);
    this.volumesByClass = Map.copyOf(volumesByClass);
  }

  static VolumeBindingState empty() {
    VolumeBindingState s = new VolumeBindingState(List.of(), List.of(), Map.of());
    s.allBound = true;
    return s;
  }

  List<V1PersistentVolumeClaim> boundClaims() {
    return boundClaims;
  }

  List<V1PersistentVolumeClaim> delayedClaims() {
    return delayedClaims;
  }

  Map<String, List<V1PersistentVolume>> volumesByClass() {
    return volumesByClass;
  }

  Map<String, PodVolumes> podVolumesByNode() {
    return podVolumesByNode;
  }

  boolean allBound() {
    return allBound;
  }

  void setAllBound(boolean allBound) {
    this.allBound = allBound;
  }
}
