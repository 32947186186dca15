package io.kubesched.core.kubernetes;

import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceClassList;
import io.kubernetes.client.openapi.models.V1ResourceClaimList;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceList;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.SchedulingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DRA objects of a {@link KubernetesCluster} ({@code resource.k8s.io/v1} ResourceClaims,
 * DeviceClasses, ResourceSlices) through informers, and the claim status writes the
 * DynamicResources plugin makes: the finalizer through an update of the claim, then {@code
 * status.allocation} and {@code status.reservedFor} through the {@code status} subresource, as
 * kube-scheduler does.
 */
final class DraInformers {
  private static final Logger log = LoggerFactory.getLogger(DraInformers.class);

  private final ResourceV1Api api;
  private final SharedIndexInformer<ResourceV1ResourceClaim> claims;
  private final SharedIndexInformer<V1DeviceClass> classes;
  private final SharedIndexInformer<V1ResourceSlice> slices;

  /** Receives DRA object changes: resource (EventResource name), old (null on add), new. */
  interface ChangeSink {
    void changed(String resource, Object oldObj, Object newObj);
  }

  DraInformers(ApiClient client, SharedInformerFactory factory, ChangeSink sink) {
    this.api = new ResourceV1Api(client);
    this.claims =
        factory.sharedIndexInformerFor(
            p ->
                api.listResourceClaimForAllNamespaces()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            ResourceV1ResourceClaim.class,
            V1ResourceClaimList.class,
            0L,
            DraInformers::failed);
    this.classes =
        factory.sharedIndexInformerFor(
            p ->
                api.listDeviceClass()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1DeviceClass.class,
            V1DeviceClassList.class,
            0L,
            DraInformers::failed);
    this.slices =
        factory.sharedIndexInformerFor(
            p ->
                api.listResourceSlice()
                    .resourceVersion(p.resourceVersion)
                    .timeoutSeconds(p.timeoutSeconds)
                    .watch(p.watch)
                    .buildCall(null),
            V1ResourceSlice.class,
            V1ResourceSliceList.class,
            0L,
            DraInformers::failed);
    claims.addEventHandler(handler(EventResource.RESOURCE_CLAIM, sink));
    classes.addEventHandler(handler(EventResource.DEVICE_CLASS, sink));
    slices.addEventHandler(handler(EventResource.RESOURCE_SLICE, sink));
  }

  private static <T extends io.kubernetes.client.common.KubernetesObject>
      ResourceEventHandler<T> handler(String resource, ChangeSink sink) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        sink.changed(resource, null, obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        sink.changed(resource, oldObj, newObj);
      }

      @Override
      public void onDelete(T obj, boolean finalStateUnknown) {
        sink.changed(resource, obj, null);
      }
    };
  }

  private static void failed(Class<?> type, Throwable e) {
    log.atWarn()
        .setMessage("list/watch of {} failed: {}")
        .addArgument(type.getSimpleName())
        .addArgument(e.toString())
        .log();
  }

  List<SharedIndexInformer<?>> informers() {
    return List.of(claims, classes, slices);
  }

  List<ResourceV1ResourceClaim> listClaims(String namespace) {
    List<ResourceV1ResourceClaim> out = new ArrayList<>();
    for (ResourceV1ResourceClaim c : claims.getIndexer().list()) {
      if (namespace == null || namespace.equals(c.getMetadata().getNamespace())) {
        out.add(c);
      }
    }
    return out;
  }

  Optional<ResourceV1ResourceClaim> getClaim(String namespace, String name) {
    return Optional.ofNullable(claims.getIndexer().getByKey(namespace + "/" + name));
  }

  Optional<V1DeviceClass> getDeviceClass(String name) {
    return Optional.ofNullable(classes.getIndexer().getByKey(name));
  }

  List<V1ResourceSlice> listSlices() {
    return slices.getIndexer().list();
  }

  ResourceV1ResourceClaim updateStatus(ResourceV1ResourceClaim claim) {
    String ns = claim.getMetadata().getNamespace();
    String name = claim.getMetadata().getName();
    try {
      ResourceV1ResourceClaim current = api.readNamespacedResourceClaim(name, ns).execute();
      String rv = claim.getMetadata().getResourceVersion();
      if (rv != null && !rv.equals(current.getMetadata().getResourceVersion())) {
        throw new SchedulingException(
            "Operation cannot be fulfilled on resourceclaims.resource.k8s.io \""
                + name
                + "\": the object has been modified; please apply your changes to the latest"
                + " version and try again");
      }
      if (!Objects.equals(
          current.getMetadata().getFinalizers(), claim.getMetadata().getFinalizers())) {
        current.getMetadata().setFinalizers(claim.getMetadata().getFinalizers());
        current = api.replaceNamespacedResourceClaim(name, ns, current).execute();
      }
      current.setStatus(claim.getStatus());
      return api.replaceNamespacedResourceClaimStatus(name, ns, current).execute();
    } catch (ApiException e) {
      throw new SchedulingException(
          "update status of resourceclaim " + ns + "/" + name + ": " + e.getResponseBody(), e);
    }
  }
}
