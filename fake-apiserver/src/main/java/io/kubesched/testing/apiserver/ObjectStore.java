package io.kubesched.testing.apiserver;

import com.google.gson.JsonObject;
import io.kubesched.testing.apiserver.Routing.Target;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The objects of the fake API server, by resource and {@code namespace/name}, with the
 * resourceVersion counter: every write takes the next resourceVersion and is recorded in the {@link
 * WatchLog}.
 *
 * <p>Callers hold {@link #lock()} around every read-modify-write (methods say when they need it).
 */
final class ObjectStore {
  private final Object lock = new Object();
  private final Map<String, TreeMap<String, JsonObject>> stores = new HashMap<>();
  private final WatchLog watchLog = new WatchLog();
  private final AtomicInteger generated = new AtomicInteger();
  private long resourceVersion = 1000;

  /** The lock guarding the objects, the resourceVersion and the watch log. */
  Object lock() {
    return lock;
  }

  WatchLog watchLog() {
    return watchLog;
  }

  /** Returns the latest resourceVersion handed out. */
  long resourceVersion() {
    synchronized (lock) {
      return resourceVersion;
    }
  }

  /** The objects of {@code r} by key, sorted; caller holds the lock. */
  TreeMap<String, JsonObject> objects(Resource r) {
    return stores.computeIfAbsent(r.key(), k -> new TreeMap<>());
  }

  /** Returns the stored object {@code t} names (not a copy); caller holds the lock. */
  JsonObject existing(Target t) throws ApiError {
    JsonObject o = objects(t.res()).get(keyOf(t));
    if (o == null) {
      throw new ApiError(404, "NotFound", t.res().plural() + " \"" + t.name() + "\" not found");
    }
    return o;
  }

  /**
   * Stores {@code next} under {@code key} with a fresh resourceVersion, records the change and
   * returns a copy of {@code next}; caller holds the lock.
   */
  JsonObject commit(Resource r, String key, String type, JsonObject old, JsonObject next) {
    long rv = ++resourceVersion;
    Json.object(next, "metadata").addProperty("resourceVersion", Long.toString(rv));
    objects(r).put(key, next);
    watchLog.record(new WatchLog.Change(rv, r, type, old, next));
    return next.deepCopy();
  }

  /**
   * Removes the object under {@code key} (whose stored state is {@code old}), records the deletion
   * with a fresh resourceVersion and returns the object's last state; caller holds the lock.
   */
  JsonObject remove(Resource r, String key, JsonObject old) {
    objects(r).remove(key);
    JsonObject last = old.deepCopy();
    long rv = ++resourceVersion;
    last.getAsJsonObject("metadata").addProperty("resourceVersion", Long.toString(rv));
    watchLog.record(new WatchLog.Change(rv, r, "DELETED", old, last));
    return last;
  }

  /**
   * Opens a watch of {@code t}: from the current objects when {@code from} is empty or {@code 0},
   * else from the changes after resourceVersion {@code from}.
   */
  WatchLog.Watcher watch(Target t, Selector selector, String from) throws ApiError {
    synchronized (lock) {
      if (from == null || from.isEmpty() || from.equals("0")) {
        return watchLog.open(t.res(), t.namespace(), selector, objects(t.res()).values(), 0);
      }
      long since;
      try {
        since = Long.parseLong(from);
      } catch (NumberFormatException e) {
        throw new ApiError(400, "BadRequest", "invalid resourceVersion " + from);
      }
      return watchLog.open(t.res(), t.namespace(), selector, null, since);
    }
  }

  /** A five-character suffix for {@code generateName}, deterministic per server. */
  String randomSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    int n = generated.incrementAndGet() * 7919 + 12345;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(alphabet.charAt(Math.floorMod(n, alphabet.length())));
      n /= alphabet.length();
    }
    return sb.toString();
  }

  static String keyOf(Target t) {
    return key(t.res(), t.namespace(), t.name());
  }

  static String key(Resource r, String namespace, String name) {
    return (r.namespaced() ? namespace : "") + "/" + name;
  }

  /** Whether {@code o} lies in {@code namespace} (null: every namespace). */
  static boolean inScope(JsonObject o, String namespace) {
    return namespace == null
        || namespace.equals(Json.str(o.getAsJsonObject("metadata"), "namespace"));
  }

  static String rvOf(JsonObject o) {
    return Json.str(o.getAsJsonObject("metadata"), "resourceVersion");
  }

  /** Sets {@code apiVersion} and {@code kind} when the client left them out. */
  static void fillTypeMeta(JsonObject o, Resource r) {
    if (!o.has("apiVersion") || o.get("apiVersion").isJsonNull()) {
      o.addProperty("apiVersion", r.apiVersion());
    }
    if (!o.has("kind") || o.get("kind").isJsonNull()) {
      o.addProperty("kind", r.kind());
    }
  }

  /** Keeps what the client cannot change with an update of the main resource. */
  static void keepServerFields(JsonObject old, JsonObject next, Resource r) {
    JsonObject om = old.getAsJsonObject("metadata");
    JsonObject nm = Json.object(next, "metadata");
    for (String f : List.of("uid", "creationTimestamp", "name", "namespace")) {
      if (om.has(f)) {
        nm.add(f, om.get(f));
      }
    }
    if (r.hasStatus()) {
      if (old.has("status")) {
        next.add("status", old.get("status"));
      } else {
        next.remove("status");
      }
    }
  }
}
