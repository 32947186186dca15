package io.kubesched.core.kubernetes;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.informer.ResourceEventHandler;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Caches;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CustomObjectsApi;
import io.kubernetes.client.util.PatchUtils;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesApi;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.framework.CustomResource;
import io.kubesched.framework.SchedulingException;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The custom resources a {@link KubernetesCluster} watches: one dynamic informer (JSON objects, no
 * generated classes) per declared resource, read back as the generic maps of {@link
 * io.kubesched.framework.ClusterClient#listCustomObjects}, and status writes as JSON merge patches
 * of the {@code status} subresource. Each informer's changes go to a {@link ChangeSink}, as maps.
 *
 * <p>Resources are added before {@link #start()}; reads and writes are thread-safe afterwards.
 */
final class CustomResourceInformers {
  private static final Logger log = LoggerFactory.getLogger(CustomResourceInformers.class);
  private static final Type MAP = new TypeToken<Map<String, Object>>() {}.getType();

  /** Receives the changes of the watched custom objects, as generic maps. */
  @FunctionalInterface
  interface ChangeSink {
    /** {@code oldObj} is null on add, {@code newObj} on delete. */
    void changed(
        String apiVersion, String kind, Map<String, Object> oldObj, Map<String, Object> newObj);
  }

  private final ApiClient client;
  private final Gson gson;
  private final ChangeSink sink;
  private final Map<String, Watched> byApiVersionKind = new LinkedHashMap<>();

  private record Watched(
      CustomResource resource,
      SharedInformerFactory factory,
      SharedIndexInformer<DynamicKubernetesObject> informer) {}

  CustomResourceInformers(ApiClient client, ChangeSink sink) {
    this.client = client;
    this.gson = client.getJSON().getGson();
    this.sink = sink;
  }

  /** Adds an informer for {@code r} (once per apiVersion and kind). */
  void watch(CustomResource r) {
    String key = r.apiVersion() + "/" + r.kind();
    if (byApiVersionKind.containsKey(key)) {
      return;
    }
    DynamicKubernetesApi api = new DynamicKubernetesApi(r.group(), r.version(), r.plural(), client);
    // One factory per resource: a factory keeps one informer per Java type.
    SharedInformerFactory factory = new SharedInformerFactory(client);
    SharedIndexInformer<DynamicKubernetesObject> informer =
        factory.sharedIndexInformerFor(
            api,
            DynamicKubernetesObject.class,
            0L,
            "",
            (t, e) ->
                log.atWarn()
                    .setMessage("list/watch of {} failed: {}")
                    .addArgument(r.plural() + "." + r.apiVersion())
                    .addArgument(e.toString())
                    .log());
    String apiVersion = r.apiVersion();
    String kind = r.kind();
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(DynamicKubernetesObject obj) {
            sink.changed(apiVersion, kind, null, toMap(obj, apiVersion, kind));
          }

          @Override
          public void onUpdate(DynamicKubernetesObject oldObj, DynamicKubernetesObject newObj) {
            sink.changed(
                apiVersion, kind, toMap(oldObj, apiVersion, kind), toMap(newObj, apiVersion, kind));
          }

          @Override
          public void onDelete(DynamicKubernetesObject obj, boolean finalStateUnknown) {
            sink.changed(apiVersion, kind, toMap(obj, apiVersion, kind), null);
          }
        });
    byApiVersionKind.put(key, new Watched(r, factory, informer));
  }

  /** Returns {@code o} as a generic map with its apiVersion and kind. */
  private Map<String, Object> toMap(DynamicKubernetesObject o, String apiVersion, String kind) {
    Map<String, Object> m = gson.fromJson(o.getRaw(), MAP);
    m.putIfAbsent("apiVersion", apiVersion);
    m.putIfAbsent("kind", kind);
    return m;
  }

  /** Returns the informers, to start and to wait for. */
  List<SharedIndexInformer<?>> informers() {
    List<SharedIndexInformer<?>> out = new ArrayList<>();
    byApiVersionKind.values().forEach(w -> out.add(w.informer()));
    return out;
  }

  /** Returns {@code plural.group/version} of each resource whose informer has not listed yet. */
  List<String> unsynced() {
    return byApiVersionKind.values().stream()
        .filter(w -> !w.informer().hasSynced())
        .map(w -> w.resource().plural() + "." + w.resource().apiVersion())
        .toList();
  }

  void start() {
    byApiVersionKind.values().forEach(w -> w.factory().startAllRegisteredInformers());
  }

  void stop() {
    byApiVersionKind.values().forEach(w -> w.factory().stopAllRegisteredInformers(true));
  }

  /** Returns the resources watched. */
  List<CustomResource> resources() {
    return byApiVersionKind.values().stream().map(Watched::resource).toList();
  }

  /**
   * Returns the objects of {@code apiVersion kind} (of {@code namespace} unless null), or an empty
   * list when that resource is not watched.
   */
  List<Map<String, Object>> list(String apiVersion, String kind, String namespace) {
    Watched w = byApiVersionKind.get(apiVersion + "/" + kind);
    if (w == null) {
      return List.of();
    }
    List<DynamicKubernetesObject> objects =
        namespace == null
            ? w.informer().getIndexer().list()
            : w.informer().getIndexer().byIndex(Caches.NAMESPACE_INDEX, namespace);
    List<Map<String, Object>> out = new ArrayList<>(objects.size());
    for (DynamicKubernetesObject o : objects) {
      out.add(toMap(o, apiVersion, kind));
    }
    return out;
  }

  /** Writes the {@code status} of {@code object} as a merge patch of its status subresource. */
  @SuppressWarnings("unchecked")
  Map<String, Object> updateStatus(Map<String, ?> object) {
    String apiVersion = String.valueOf(object.get("apiVersion"));
    String kind = String.valueOf(object.get("kind"));
    Watched w = byApiVersionKind.get(apiVersion + "/" + kind);
    if (w == null) {
      throw new SchedulingException(
          "cannot write the status of a " + kind + " (" + apiVersion + "): not a watched resource");
    }
    Map<String, Object> meta =
        object.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    String name = Objects.toString(meta.get("name"), null);
    String namespace = Objects.toString(meta.get("namespace"), null);
    if (name == null || (w.resource().namespaced() && namespace == null)) {
      throw new IllegalArgumentException(
          kind + ": metadata.name" + (name == null ? "" : "space") + ": Required value");
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("status", object.get("status"));
    String json = gson.newBuilder().serializeNulls().create().toJson(body);
    CustomObjectsApi api = new CustomObjectsApi(client);
    CustomResource r = w.resource();
    String what =
        "patch the status of " + kind + " " + (namespace == null ? "" : namespace + "/") + name;
    try {
      Object out =
          PatchUtils.patch(
              Object.class,
              () ->
                  r.namespaced()
                      ? api.patchNamespacedCustomObjectStatus(
                              r.group(),
                              r.version(),
                              namespace,
                              r.plural(),
                              name,
                              new V1Patch(json))
                          .buildCall(null)
                      : api.patchClusterCustomObjectStatus(
                              r.group(), r.version(), r.plural(), name, new V1Patch(json))
                          .buildCall(null),
              V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
              client);
      JsonObject tree = gson.toJsonTree(out).getAsJsonObject();
      return gson.fromJson(tree, MAP);
    } catch (ApiException e) {
      if (e.getCode() == 404) {
        throw new ClusterException(ClusterException.Reason.NOT_FOUND, what + ": not found");
      }
      if (e.getCode() == 409) {
        throw new ClusterException(ClusterException.Reason.CONFLICT, what + ": conflict");
      }
      throw new SchedulingException(
          "cannot " + what + ": HTTP " + e.getCode() + ": " + e.getResponseBody(), e);
    }
  }
}
