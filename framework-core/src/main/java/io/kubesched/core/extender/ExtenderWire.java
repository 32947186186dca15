package io.kubesched.core.extender;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON messages of kube-scheduler's HTTP extender protocol ({@code k8s.io/kube-scheduler/
 * extender/v1}), for both ends of the wire.
 *
 * <p>Go encodes these structs without JSON tags, so the keys are the Go field names in PascalCase
 * ({@code Pod}, {@code NodeNames}, {@code FailedNodes}, ...) and absent pointers, slices and maps
 * are written as {@code null}; embedded pods and nodes are ordinary Kubernetes JSON (camelCase).
 * Decoding matches keys case-insensitively, as Go's {@code encoding/json} does (when several keys
 * match a field, the last one wins), and ignores unknown keys. Every decoder throws {@link
 * IllegalArgumentException} naming the offending field when the JSON does not have the expected
 * shape.
 */
public final class ExtenderWire {
  /** Writes nulls, as Go writes nil pointers, slices and maps. */
  private static final Gson WRITER =
      new GsonBuilder().serializeNulls().disableHtmlEscaping().create();

  /**
   * Decodes Kubernetes objects as Go does: unknown fields are ignored and no field is required
   * (client-java's own Gson rejects both). Reflection on the models honours their serialized names;
   * quantities and int-or-strings carry their own adapters.
   */
  private static final Gson LENIENT_READER =
      JSON.createGson()
          .registerTypeAdapter(java.time.OffsetDateTime.class, new JSON.OffsetDateTimeTypeAdapter())
          .registerTypeAdapter(byte[].class, new JSON.ByteArrayAdapter())
          .create();

  private ExtenderWire() {}

  // ---------------------------------------------------------------- messages

  /**
   * {@code ExtenderArgs}: the pod and either the candidate nodes or, for node-cache-capable
   * extenders, their names.
   *
   * @param pod the pod being scheduled
   * @param nodes the candidate nodes, or {@code null} when only names are sent
   * @param nodeNames the candidate node names, or {@code null} when the nodes are sent
   */
  public record ExtenderArgs(V1Pod pod, List<V1Node> nodes, List<String> nodeNames) {}

  /**
   * {@code ExtenderFilterResult}.
   *
   * @param nodes the nodes that passed (non-cache-capable extenders), or {@code null}
   * @param nodeNames the names of the nodes that passed (cache-capable extenders), or {@code null}
   * @param failedNodes the rejected nodes with their message, or {@code null}
   * @param failedAndUnresolvableNodes the nodes rejected for good (preemption cannot help), or
   *     {@code null}; they take precedence over {@code failedNodes}
   * @param error the error message, {@code ""} when none
   */
  public record FilterResult(
      List<V1Node> nodes,
      List<String> nodeNames,
      Map<String, String> failedNodes,
      Map<String, String> failedAndUnresolvableNodes,
      String error) {
    /** Normalises a {@code null} error to {@code ""}. */
    public FilterResult {
      error = error == null ? "" : error;
    }
  }

  /**
   * {@code HostPriority}: one node's score in [0, 10].
   *
   * @param host the node name
   * @param score the score
   */
  public record HostPriority(String host, long score) {}

  /**
   * {@code ExtenderBindingArgs}.
   *
   * @param podName the pod's name
   * @param podNamespace the pod's namespace
   * @param podUid the pod's UID
   * @param node the node chosen by the scheduler
   */
  public record BindingArgs(String podName, String podNamespace, String podUid, String node) {}

  /**
   * {@code Victims}: full pods to evict on a node.
   *
   * @param pods the pods
   * @param numPdbViolations how many evictions violate a disruption budget
   */
  public record Victims(List<V1Pod> pods, long numPdbViolations) {}

  /**
   * {@code MetaVictims}: the UIDs of the pods to evict on a node.
   *
   * @param podUids the UIDs
   * @param numPdbViolations how many evictions violate a disruption budget
   */
  public record MetaVictims(List<String> podUids, long numPdbViolations) {}

  /**
   * {@code ExtenderPreemptionArgs}: exactly one of the two maps is set.
   *
   * @param pod the preemptor
   * @param nodeNameToVictims full victims (non-cache-capable extenders), or {@code null}
   * @param nodeNameToMetaVictims victim UIDs (cache-capable extenders), or {@code null}
   */
  public record PreemptionArgs(
      V1Pod pod,
      Map<String, Victims> nodeNameToVictims,
      Map<String, MetaVictims> nodeNameToMetaVictims) {}

  // ---------------------------------------------------------------- encoding

  /** Encodes {@code ExtenderArgs}. */
  public static String encode(ExtenderArgs args) {
    JsonObject o = new JsonObject();
    o.add("Pod", tree(args.pod()));
    o.add("Nodes", args.nodes() == null ? JsonNull.INSTANCE : nodeList(args.nodes()));
    o.add("NodeNames", strings(args.nodeNames()));
    return WRITER.toJson(o);
  }

  /** Encodes {@code ExtenderFilterResult}. */
  public static String encode(FilterResult r) {
    JsonObject o = new JsonObject();
    o.add("Nodes", r.nodes() == null ? JsonNull.INSTANCE : nodeList(r.nodes()));
    o.add("NodeNames", strings(r.nodeNames()));
    o.add("FailedNodes", stringMap(r.failedNodes()));
    o.add("FailedAndUnresolvableNodes", stringMap(r.failedAndUnresolvableNodes()));
    o.addProperty("Error", r.error());
    return WRITER.toJson(o);
  }

  /** Encodes a {@code HostPriorityList}. */
  public static String encodePriorities(List<HostPriority> list) {
    JsonArray a = new JsonArray();
    for (HostPriority p : list) {
      JsonObject o = new JsonObject();
      o.addProperty("Host", p.host());
      o.addProperty("Score", p.score());
      a.add(o);
    }
    return WRITER.toJson(a);
  }

  /** Encodes {@code ExtenderBindingArgs}. */
  public static String encode(BindingArgs args) {
    JsonObject o = new JsonObject();
    o.addProperty("PodName", nullToEmpty(args.podName()));
    o.addProperty("PodNamespace", nullToEmpty(args.podNamespace()));
    o.addProperty("PodUID", nullToEmpty(args.podUid()));
    o.addProperty("Node", nullToEmpty(args.node()));
    return WRITER.toJson(o);
  }

  /** Encodes {@code ExtenderBindingResult} with {@code error} ({@code ""} on success). */
  public static String encodeBindingResult(String error) {
    JsonObject o = new JsonObject();
    o.addProperty("Error", nullToEmpty(error));
    return WRITER.toJson(o);
  }

  /** Encodes {@code ExtenderPreemptionArgs}. */
  public static String encode(PreemptionArgs args) {
    JsonObject o = new JsonObject();
    o.add("Pod", tree(args.pod()));
    if (args.nodeNameToVictims() == null) {
      o.add("NodeNameToVictims", JsonNull.INSTANCE);
    } else {
      JsonObject m = new JsonObject();
      args.nodeNameToVictims()
          .forEach(
              (node, v) -> {
                JsonObject vo = new JsonObject();
                JsonArray pods = new JsonArray();
                v.pods().forEach(p -> pods.add(tree(p)));
                vo.add("Pods", pods);
                vo.addProperty("NumPDBViolations", v.numPdbViolations());
                m.add(node, vo);
              });
      o.add("NodeNameToVictims", m);
    }
    o.add("NodeNameToMetaVictims", metaVictims(args.nodeNameToMetaVictims()));
    return WRITER.toJson(o);
  }

  /** Encodes {@code ExtenderPreemptionResult}. */
  public static String encodePreemptionResult(Map<String, MetaVictims> nodeNameToMetaVictims) {
    JsonObject o = new JsonObject();
    o.add("NodeNameToMetaVictims", metaVictims(nodeNameToMetaVictims));
    return WRITER.toJson(o);
  }

  private static JsonElement metaVictims(Map<String, MetaVictims> map) {
    if (map == null) {
      return JsonNull.INSTANCE;
    }
    JsonObject m = new JsonObject();
    map.forEach(
        (node, v) -> {
          JsonObject vo = new JsonObject();
          JsonArray pods = new JsonArray();
          for (String uid : v.podUids()) {
            JsonObject mp = new JsonObject();
            mp.addProperty("UID", uid);
            pods.add(mp);
          }
          vo.add("Pods", pods);
          vo.addProperty("NumPDBViolations", v.numPdbViolations());
          m.add(node, vo);
        });
    return m;
  }

  /**
   * The Kubernetes JSON of a client-java model. The models initialise their list and map fields to
   * empty values where Go has nil ones that {@code omitempty} drops; the empty arrays, and the
   * empty objects of map-typed fields, are removed so that the JSON reads as Go writes it.
   */
  private static JsonElement tree(Object kubeObject) {
    if (kubeObject == null) {
      return JsonNull.INSTANCE;
    }
    JsonElement e = JSON.getGson().toJsonTree(kubeObject);
    prune(e);
    return e;
  }

  /** Fields of the core models whose Go type is a map (omitted when empty). */
  private static final java.util.Set<String> MAP_FIELDS =
      java.util.Set.of(
          "annotations",
          "labels",
          "nodeSelector",
          "overhead",
          "requests",
          "limits",
          "capacity",
          "allocatable",
          "matchLabels",
          "allocatedResources",
          "data",
          "binaryData",
          "volumeAttributes",
          "parameters");

  private static void prune(JsonElement e) {
    if (e.isJsonArray()) {
      for (JsonElement item : e.getAsJsonArray()) {
        prune(item);
      }
    } else if (e.isJsonObject()) {
      JsonObject o = e.getAsJsonObject();
      List<String> drop = new ArrayList<>();
      for (Map.Entry<String, JsonElement> m : o.entrySet()) {
        JsonElement v = m.getValue();
        prune(v);
        if ((v.isJsonArray() && v.getAsJsonArray().isEmpty())
            || (v.isJsonObject()
                && v.getAsJsonObject().size() == 0
                && MAP_FIELDS.contains(m.getKey()))) {
          drop.add(m.getKey());
        }
      }
      drop.forEach(o::remove);
    }
  }

  /** A {@code v1.NodeList} as Go writes it: empty list metadata, {@code items} null when empty. */
  private static JsonObject nodeList(List<V1Node> nodes) {
    JsonObject list = new JsonObject();
    list.add("metadata", new JsonObject());
    if (nodes.isEmpty()) {
      list.add("items", JsonNull.INSTANCE);
    } else {
      JsonArray items = new JsonArray();
      nodes.forEach(n -> items.add(tree(n)));
      list.add("items", items);
    }
    return list;
  }

  private static JsonElement strings(List<String> values) {
    if (values == null) {
      return JsonNull.INSTANCE;
    }
    JsonArray a = new JsonArray();
    values.forEach(a::add);
    return a;
  }

  private static JsonElement stringMap(Map<String, String> map) {
    if (map == null) {
      return JsonNull.INSTANCE;
    }
    JsonObject o = new JsonObject();
    map.forEach(o::addProperty);
    return o;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  // ---------------------------------------------------------------- decoding

  /** Decodes {@code ExtenderArgs}. */
  public static ExtenderArgs decodeArgs(String json) {
    JsonObject o = object(parse(json), "ExtenderArgs");
    JsonElement pod = field(o, "Pod");
    return new ExtenderArgs(
        isNull(pod) ? null : kube(pod, V1Pod.class, "Pod"),
        nodeListItems(field(o, "Nodes"), "Nodes"),
        stringList(field(o, "NodeNames"), "NodeNames"));
  }

  /** Decodes {@code ExtenderFilterResult}. */
  public static FilterResult decodeFilterResult(String json) {
    JsonObject o = object(parse(json), "ExtenderFilterResult");
    return new FilterResult(
        nodeListItems(field(o, "Nodes"), "Nodes"),
        stringList(field(o, "NodeNames"), "NodeNames"),
        stringMap(field(o, "FailedNodes"), "FailedNodes"),
        stringMap(field(o, "FailedAndUnresolvableNodes"), "FailedAndUnresolvableNodes"),
        string(field(o, "Error"), "Error"));
  }

  /** Decodes a {@code HostPriorityList}. */
  public static List<HostPriority> decodePriorities(String json) {
    JsonElement e = parse(json);
    if (isNull(e)) {
      return List.of();
    }
    if (!e.isJsonArray()) {
      throw new IllegalArgumentException(
          "cannot unmarshal " + kind(e) + " into Go value of type HostPriorityList");
    }
    List<HostPriority> out = new ArrayList<>();
    for (JsonElement item : e.getAsJsonArray()) {
      if (isNull(item)) {
        out.add(new HostPriority("", 0));
        continue;
      }
      JsonObject o = object(item, "HostPriority");
      out.add(
          new HostPriority(
              string(field(o, "Host"), "HostPriority.Host"),
              int64(field(o, "Score"), "HostPriority.Score")));
    }
    return out;
  }

  /** Decodes {@code ExtenderBindingArgs}. */
  public static BindingArgs decodeBindingArgs(String json) {
    JsonObject o = object(parse(json), "ExtenderBindingArgs");
    return new BindingArgs(
        string(field(o, "PodName"), "PodName"),
        string(field(o, "PodNamespace"), "PodNamespace"),
        string(field(o, "PodUID"), "PodUID"),
        string(field(o, "Node"), "Node"));
  }

  /** Decodes {@code ExtenderBindingResult}; returns its error ({@code ""} when none). */
  public static String decodeBindingResult(String json) {
    return string(field(object(parse(json), "ExtenderBindingResult"), "Error"), "Error");
  }

  /** Decodes {@code ExtenderPreemptionResult}; {@code null} when the map is absent. */
  public static Map<String, MetaVictims> decodePreemptionResult(String json) {
    JsonObject o = object(parse(json), "ExtenderPreemptionResult");
    return decodeMetaVictims(field(o, "NodeNameToMetaVictims"), "NodeNameToMetaVictims");
  }

  /** Decodes {@code ExtenderPreemptionArgs} (the extender's side). */
  public static PreemptionArgs decodePreemptionArgs(String json) {
    JsonObject o = object(parse(json), "ExtenderPreemptionArgs");
    JsonElement pod = field(o, "Pod");
    Map<String, Victims> full = null;
    JsonElement v = field(o, "NodeNameToVictims");
    if (!isNull(v)) {
      full = new LinkedHashMap<>();
      for (Map.Entry<String, JsonElement> e : object(v, "NodeNameToVictims").entrySet()) {
        String path = "NodeNameToVictims." + e.getKey();
        if (isNull(e.getValue())) {
          full.put(e.getKey(), null);
          continue;
        }
        JsonObject vo = object(e.getValue(), path);
        List<V1Pod> pods = new ArrayList<>();
        JsonElement pe = field(vo, "Pods");
        if (!isNull(pe)) {
          for (JsonElement p : array(pe, path + ".Pods")) {
            pods.add(isNull(p) ? null : kube(p, V1Pod.class, path + ".Pods"));
          }
        }
        full.put(
            e.getKey(),
            new Victims(pods, int64(field(vo, "NumPDBViolations"), path + ".NumPDBViolations")));
      }
    }
    return new PreemptionArgs(
        isNull(pod) ? null : kube(pod, V1Pod.class, "Pod"),
        full,
        decodeMetaVictims(field(o, "NodeNameToMetaVictims"), "NodeNameToMetaVictims"));
  }

  private static Map<String, MetaVictims> decodeMetaVictims(JsonElement e, String what) {
    if (isNull(e)) {
      return null;
    }
    Map<String, MetaVictims> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> entry : object(e, what).entrySet()) {
      String path = what + "." + entry.getKey();
      if (isNull(entry.getValue())) {
        out.put(entry.getKey(), null);
        continue;
      }
      JsonObject vo = object(entry.getValue(), path);
      List<String> uids = new ArrayList<>();
      JsonElement pods = field(vo, "Pods");
      if (!isNull(pods)) {
        for (JsonElement p : array(pods, path + ".Pods")) {
          uids.add(isNull(p) ? "" : string(field(object(p, "MetaPod"), "UID"), "MetaPod.UID"));
        }
      }
      out.put(
          entry.getKey(),
          new MetaVictims(uids, int64(field(vo, "NumPDBViolations"), path + ".NumPDBViolations")));
    }
    return out;
  }

  /**
   * Parses the first JSON value of {@code json}; what follows it is ignored, as Go's {@code
   * json.Decoder} (used by kube-scheduler on answers) ignores it.
   */
  private static JsonElement parse(String json) {
    try {
      return JsonParser.parseReader(new com.google.gson.stream.JsonReader(new StringReader(json)));
    } catch (JsonParseException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalArgumentException("invalid JSON: " + cause.getMessage(), e);
    }
  }

  /**
   * Returns the member of {@code o} matching {@code name} case-insensitively (the last one when
   * several match), or {@code null}.
   */
  static JsonElement field(JsonObject o, String name) {
    JsonElement found = null;
    for (Map.Entry<String, JsonElement> e : o.entrySet()) {
      if (e.getKey().equalsIgnoreCase(name)) {
        found = e.getValue();
      }
    }
    return found;
  }

  private static boolean isNull(JsonElement e) {
    return e == null || e.isJsonNull();
  }

  private static JsonObject object(JsonElement e, String what) {
    if (e == null || !e.isJsonObject()) {
      throw new IllegalArgumentException(
          "cannot unmarshal " + kind(e) + " into Go value of type " + what);
    }
    return e.getAsJsonObject();
  }

  private static JsonArray array(JsonElement e, String what) {
    if (!e.isJsonArray()) {
      throw new IllegalArgumentException(
          "cannot unmarshal " + kind(e) + " into Go struct field " + what);
    }
    return e.getAsJsonArray();
  }

  private static String string(JsonElement e, String what) {
    if (isNull(e)) {
      return "";
    }
    if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isString()) {
      return e.getAsString();
    }
    throw new IllegalArgumentException(
        "cannot unmarshal " + kind(e) + " into Go struct field " + what + " of type string");
  }

  private static long int64(JsonElement e, String what) {
    if (isNull(e)) {
      return 0;
    }
    if (e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber()) {
      try {
        return new BigDecimal(e.getAsString()).longValueExact();
      } catch (ArithmeticException | NumberFormatException ex) {
        throw new IllegalArgumentException(
            "cannot unmarshal number "
                + e.getAsString()
                + " into Go struct field "
                + what
                + " of type int64");
      }
    }
    throw new IllegalArgumentException(
        "cannot unmarshal " + kind(e) + " into Go struct field " + what + " of type int64");
  }

  private static List<String> stringList(JsonElement e, String what) {
    if (isNull(e)) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (JsonElement item : array(e, what)) {
      out.add(string(item, what));
    }
    return out;
  }

  private static Map<String, String> stringMap(JsonElement e, String what) {
    if (isNull(e)) {
      return null;
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonElement> entry : object(e, what).entrySet()) {
      out.put(entry.getKey(), string(entry.getValue(), what));
    }
    return out;
  }

  /** The items of a {@code v1.NodeList}, or {@code null} when the list is absent. */
  private static List<V1Node> nodeListItems(JsonElement e, String what) {
    if (isNull(e)) {
      return null;
    }
    JsonElement items = field(object(e, what), "items");
    List<V1Node> out = new ArrayList<>();
    if (!isNull(items)) {
      for (JsonElement item : array(items, what + ".items")) {
        out.add(kube(item, V1Node.class, what + ".items"));
      }
    }
    return out;
  }

  private static <T> T kube(JsonElement e, Class<T> type, String what) {
    object(e, what);
    try {
      return LENIENT_READER.fromJson(e, type);
    } catch (RuntimeException ex) {
      String msg = ex.getMessage() == null ? ex.toString() : ex.getMessage();
      int cut = msg.indexOf(" JSON: ");
      throw new IllegalArgumentException(what + ": " + (cut > 0 ? msg.substring(0, cut) : msg), ex);
    }
  }

  private static String kind(JsonElement e) {
    if (e == null || e.isJsonNull()) {
      return "null";
    }
    if (e.isJsonArray()) {
      return "array";
    }
    if (e.isJsonObject()) {
      return "object";
    }
    JsonPrimitive p = e.getAsJsonPrimitive();
    return p.isString() ? "string" : p.isNumber() ? "number" : "bool";
  }
}
