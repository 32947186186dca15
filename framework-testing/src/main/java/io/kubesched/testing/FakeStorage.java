package io.kubesched.testing;

import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.framework.StorageClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link StorageClient} over fixed lists, like kube's fake listers: objects are returned as
 * given, with no defaulting. Writes replace the object of the same name (and namespace).
 */
public final class FakeStorage implements StorageClient {
  private final List<V1PersistentVolume> pvs = new ArrayList<>();
  private final List<V1PersistentVolumeClaim> pvcs = new ArrayList<>();
  private final List<V1StorageClass> classes = new ArrayList<>();
  private final List<V1CSINode> csiNodes = new ArrayList<>();
  private final List<V1CSIDriver> csiDrivers = new ArrayList<>();
  private final List<V1CSIStorageCapacity> capacities = new ArrayList<>();

  /** Creates an empty fake. */
  public FakeStorage() {}

  /** Adds persistent volumes. */
  public FakeStorage pvs(V1PersistentVolume... items) {
    pvs.addAll(List.of(items));
    return this;
  }

  /** Adds claims. */
  public FakeStorage pvcs(V1PersistentVolumeClaim... items) {
    pvcs.addAll(List.of(items));
    return this;
  }

  /** Adds storage classes. */
  public FakeStorage classes(V1StorageClass... items) {
    classes.addAll(List.of(items));
    return this;
  }

  /** Adds CSINode objects; one named as a CSINode already held replaces it, as an update does. */
  public FakeStorage csiNodes(V1CSINode... items) {
    for (V1CSINode item : items) {
      String name = item.getMetadata().getName();
      csiNodes.removeIf(c -> c.getMetadata().getName().equals(name));
      csiNodes.add(item);
    }
    return this;
  }

  /** Adds CSIDriver objects. */
  public FakeStorage csiDrivers(V1CSIDriver... items) {
    csiDrivers.addAll(List.of(items));
    return this;
  }

  /** Adds CSIStorageCapacity objects. */
  public FakeStorage capacities(V1CSIStorageCapacity... items) {
    capacities.addAll(List.of(items));
    return this;
  }

  @Override
  public List<V1PersistentVolume> listPersistentVolumes() {
    return List.copyOf(pvs);
  }

  @Override
  public Optional<V1PersistentVolume> getPersistentVolume(String name) {
    return pvs.stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
  }

  @Override
  public List<V1PersistentVolumeClaim> listPersistentVolumeClaims(String namespace) {
    return pvcs.stream()
        .filter(p -> namespace == null || namespace.equals(p.getMetadata().getNamespace()))
        .toList();
  }

  @Override
  public Optional<V1PersistentVolumeClaim> getPersistentVolumeClaim(String namespace, String name) {
    return pvcs.stream()
        .filter(
            p ->
                p.getMetadata().getName().equals(name)
                    && Objects.equals(namespace, p.getMetadata().getNamespace()))
        .findFirst();
  }

  @Override
  public List<V1StorageClass> listStorageClasses() {
    return List.copyOf(classes);
  }

  @Override
  public Optional<V1StorageClass> getStorageClass(String name) {
    return classes.stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
  }

  @Override
  public Optional<V1CSINode> getCSINode(String name) {
    return csiNodes.stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
  }

  @Override
  public List<V1CSINode> listCSINodes() {
    return List.copyOf(csiNodes);
  }

  @Override
  public Optional<V1CSIDriver> getCSIDriver(String name) {
    return csiDrivers.stream().filter(p -> p.getMetadata().getName().equals(name)).findFirst();
  }

  @Override
  public List<V1CSIDriver> listCSIDrivers() {
    return List.copyOf(csiDrivers);
  }

  @Override
  public List<V1CSIStorageCapacity> listCSIStorageCapacities() {
    return List.copyOf(capacities);
  }

  @Override
  public V1PersistentVolume updatePersistentVolume(V1PersistentVolume pv) {
    pvs.removeIf(p -> p.getMetadata().getName().equals(pv.getMetadata().getName()));
    pvs.add(pv);
    return pv;
  }

  @Override
  public V1PersistentVolumeClaim updatePersistentVolumeClaim(V1PersistentVolumeClaim pvc) {
    pvcs.removeIf(
        p ->
            p.getMetadata().getName().equals(pvc.getMetadata().getName())
                && Objects.equals(
                    p.getMetadata().getNamespace(), pvc.getMetadata().getNamespace()));
    pvcs.add(pvc);
    return pvc;
  }
}
