package io.kubesched.core.kubernetes;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSIDriverList;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSINodeList;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacityList;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimList;
import io.kubernetes.client.openapi.models.V1PersistentVolumeList;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1StorageClassList;
import io.kubernetes.client.util.CallGenerator;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.StorageClient;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The storage objects of a {@link KubernetesCluster}: informers for PersistentVolumes,
 * PersistentVolumeClaims, StorageClasses, CSINodes, CSIDrivers and CSIStorageCapacities (their
 * changes reported as storage events), reads from their stores, and the volume binder's PV and
 * claim updates through the API ({@code 409 Conflict} on a stale resourceVersion).
 */
final class KubernetesStorage implements StorageClient {
  /** Makes an informer (the cluster's factory, with its error logging). */
  interface Informers {
    <T extends KubernetesObject, L extends KubernetesListObject> SharedIndexInformer<T> informer(
        CallGenerator calls, Class<T> type, Class<L> listType);
  }

  /** Receives a storage change: resource, action, old and new object. */
  interface Changes {
    void changed(String resource, int actionType, Object oldObj, Object newObj);
  }

  private final CoreV1Api core;
  private final Function<ApiException, RuntimeException> refusal;
  private final SharedIndexInformer<V1PersistentVolume> pvs;
  private final SharedIndexInformer<V1PersistentVolumeClaim> pvcs;
  private final SharedIndexInformer<V1StorageClass> classes;
  private final SharedIndexInformer<V1CSINode> csiNodes;
  private final SharedIndexInformer<V1CSIDriver> csiDrivers;
  private final SharedIndexInformer<V1CSIStorageCapacity> capacities;

  KubernetesStorage(
      ApiClient client,
      Informers informers,
      Changes changes,
      Function<ApiException, RuntimeException> refusal) {
    this.core = new CoreV1Api(client);
    this.refusal = refusal;
    StorageV1Api storage = new StorageV1Api(client);
    this.pvs =
        informers.informer(
            p ->
                core.listPersistentVolume()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1PersistentVolume.class,
            V1PersistentVolumeList.class);
    this.pvcs =
        informers.informer(
            p ->
                core.listPersistentVolumeClaimForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1PersistentVolumeClaim.class,
            V1PersistentVolumeClaimList.class);
    this.classes =
        informers.informer(
            p ->
                storage
                    .listStorageClass()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1StorageClass.class,
            V1StorageClassList.class);
    this.csiNodes =
        informers.informer(
            p ->
                storage
                    .listCSINode()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1CSINode.class,
            V1CSINodeList.class);
    this.csiDrivers =
        informers.informer(
            p ->
                storage
                    .listCSIDriver()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1CSIDriver.class,
            V1CSIDriverList.class);
    this.capacities =
        informers.informer(
            p ->
                storage
                    .listCSIStorageCapacityForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1CSIStorageCapacity.class,
            V1CSIStorageCapacityList.class);
    pvs.addEventHandler(handler(EventResource.PERSISTENT_VOLUME, changes));
    pvcs.addEventHandler(handler(EventResource.PERSISTENT_VOLUME_CLAIM, changes));
    classes.addEventHandler(handler(EventResource.STORAGE_CLASS, changes));
    csiNodes.addEventHandler(handler(EventResource.CSI_NODE, changes));
    csiDrivers.addEventHandler(handler(EventResource.CSI_DRIVER, changes));
    capacities.addEventHandler(handler(EventResource.CSI_STORAGE_CAPACITY, changes));
  }

  /** Returns the informers, for the cluster to start and wait on. */
  List<SharedIndexInformer<?>> informers() {
    return List.of(pvs, pvcs, classes, csiNodes, csiDrivers, capacities);
  }

  private static <T extends KubernetesObject> ResourceEventHandler<T> handler(
      String resource, Changes changes) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changes.changed(resource, ActionType.ADD, null, obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        changes.changed(resource, ActionType.UPDATE, oldObj, newObj);
      }

      @Override
      public void onDelete(T obj, boolean finalStateUnknown) {
        changes.changed(resource, ActionType.DELETE, obj, null);
      }
    };
  }

  @Override
  public List<V1PersistentVolume> listPersistentVolumes() {
    return List.copyOf(pvs.getIndexer().list());
  }

  @Override
  public Optional<V1PersistentVolume> getPersistentVolume(String name) {
    return Optional.ofNullable(pvs.getIndexer().getByKey(name));
  }

  @Override
  public List<V1PersistentVolumeClaim> listPersistentVolumeClaims(String namespace) {
    return namespace == null
        ? List.copyOf(pvcs.getIndexer().list())
        : List.copyOf(
            pvcs.getIndexer()
                .byIndex(io.kubernetes.client.informer.cache.Caches.NAMESPACE_INDEX, namespace));
  }

  @Override
  public Optional<V1PersistentVolumeClaim> getPersistentVolumeClaim(String namespace, String name) {
    return Optional.ofNullable(pvcs.getIndexer().getByKey(namespace + "/" + name));
  }

  @Override
  public List<V1StorageClass> listStorageClasses() {
    return List.copyOf(classes.getIndexer().list());
  }

  @Override
  public Optional<V1StorageClass> getStorageClass(String name) {
    return Optional.ofNullable(classes.getIndexer().getByKey(name));
  }

  @Override
  public Optional<V1CSINode> getCSINode(String name) {
    return Optional.ofNullable(csiNodes.getIndexer().getByKey(name));
  }

  @Override
  public List<V1CSINode> listCSINodes() {
    return List.copyOf(csiNodes.getIndexer().list());
  }

  @Override
  public Optional<V1CSIDriver> getCSIDriver(String name) {
    return Optional.ofNullable(csiDrivers.getIndexer().getByKey(name));
  }

  @Override
  public List<V1CSIDriver> listCSIDrivers() {
    return List.copyOf(csiDrivers.getIndexer().list());
  }

  @Override
  public List<V1CSIStorageCapacity> listCSIStorageCapacities() {
    return List.copyOf(capacities.getIndexer().list());
  }

  @Override
  public V1PersistentVolume updatePersistentVolume(V1PersistentVolume pv) {
    try {
      return core.replacePersistentVolume(pv.getMetadata().getName(), pv).execute();
    } catch (ApiException e) {
      throw refusal.apply(e);
    } catch (RuntimeException e) {
      throw new SchedulingException(
          "cannot update persistentvolume " + pv.getMetadata().getName() + ": " + e.getMessage(),
          e);
    }
  }

  @Override
  public V1PersistentVolumeClaim updatePersistentVolumeClaim(V1PersistentVolumeClaim pvc) {
    var m = pvc.getMetadata();
    try {
      return core.replaceNamespacedPersistentVolumeClaim(m.getName(), m.getNamespace(), pvc)
          .execute();
    } catch (ApiException e) {
      throw refusal.apply(e);
    } catch (RuntimeException e) {
      throw new SchedulingException(
          "cannot update persistentvolumeclaim "
              + m.getNamespace()
              + "/"
              + m.getName()
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
