package io.kubesched.testing;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process Kubernetes API server for end-to-end tests of schedulers built on client-java: it
 * keeps objects in memory and speaks the real wire protocol on {@code http://127.0.0.1:PORT}.
 *
 * <p>Served resources: core/v1 {@code nodes}, {@code pods}, {@code namespaces}, {@code events},
 * {@code services}, {@code replicationcontrollers}; apps/v1 {@code replicasets}, {@code
 * statefulsets}; events.k8s.io/v1 {@code events}; policy/v1 {@code poddisruptionbudgets};
 * scheduling.k8s.io/v1 {@code priorityclasses}; coordination.k8s.io/v1 {@code leases}. Supported:
 * get, list (with label and field selectors, e.g. {@code spec.nodeName!=}), streaming watch
 * resuming from {@code resourceVersion} (objects leaving a selector are reported as {@code
 * DELETED}, entering it as {@code ADDED}), create (with {@code generateName}), update (a stale
 * {@code resourceVersion} is a {@code 409 Conflict}), JSON merge patch (RFC 7386) and strategic
 * merge patch (lists keyed like Kubernetes' for {@code conditions}, {@code containers}, ...),
 * delete (with uid/resourceVersion preconditions), the {@code status} subresource and {@code POST
 * pods/NAME/binding} (answers {@code 201} with a {@code v1.Status}, {@code 409} when the pod is
 * already bound). Not supported: JSON patch, server-side apply, paging ({@code limit} is ignored),
 * deletion grace periods (objects go at once), admission and validation.
 *
 * <p>Thread-safe. Close it to stop the server and end every open watch.
 */
public final class FakeApiServer implements AutoCloseable {
  private static final String POISON = "";

  /** A served resource: where it lives in the URL space and what its objects are called. */
  private record Resource(
      String group, String version, String plural, String kind, boolean namespaced) {
    String apiVersion() {
      return group.isEmpty() ? version : group + "/" + version;
    }

    String key() {
      return group + "/" + version + "/" + plural;
    }

    boolean hasStatus() {
      return Set.of("pods", "nodes", "namespaces", "poddisruptionbudgets", "services")
          .contains(plural);
    }
  }

  private static final List<Resource> RESOURCES =
      List.of(
          new Resource("", "v1", "pods", "Pod", true),
          new Resource("", "v1", "nodes", "Node", false),
          new Resource("", "v1", "namespaces", "Namespace", false),
          new Resource("", "v1", "events", "Event", true),
          new Resource("", "v1", "services", "Service", true),
          new Resource("", "v1", "replicationcontrollers", "ReplicationController", true),
          new Resource("apps", "v1", "replicasets", "ReplicaSet", true),
          new Resource("apps", "v1", "statefulsets", "StatefulSet", true),
          new Resource("events.k8s.io", "v1", "events", "Event", true),
          new Resource("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true),
          new Resource("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false),
          new Resource("coordination.k8s.io", "v1", "leases", "Lease", true));

  /** List fields merged by key in a strategic merge patch, by field name. */
  private static final Map<String, String> MERGE_KEYS =
      Map.of(
          "conditions", "type",
          "containers", "name",
          "initContainers", "name",
          "ephemeralContainers", "name",
          "volumes", "name",
          "env", "name",
          "ownerReferences", "uid");

  /** One change of the store, as the watch log keeps it. */
  private record Change(long rv, Resource res, String type, JsonObject oldObj, JsonObject newObj) {}

  /** An open watch. */
  private record Watcher(
      Resource res, String namespace, Selector selector, BlockingQueue<String> lines) {}

  /** A parsed request path. */
  private record Target(Resource res, String namespace, String name, String sub) {}

  /** An error answered as a {@code v1.Status}. */
  private static final class ApiError extends Exception {
    private static final long serialVersionUID = 1L;
    final int code;
    final String reason;

    ApiError(int code, String reason, String message) {
      super(message, null, false, false);
      this.code = code;
      this.reason = reason;
    }
  }

  private final Gson gson = new GsonBuilder().disableHtmlEscaping().create();
  private final Clock clock;
  private final Object lock = new Object();
  private final Map<String, TreeMap<String, JsonObject>> stores = new HashMap<>();
  private final List<Change> log = new ArrayList<>();
  private final List<Watcher> watchers = new CopyOnWriteArrayList<>();
  private final AtomicInteger generated = new AtomicInteger();
  private long resourceVersion = 1000;
  private final HttpServer server;
  private final ExecutorService executor;

  private FakeApiServer(Clock clock) throws IOException {
    this.clock = clock;
    System.setProperty("sun.net.httpserver.nodelay", "true");
    AtomicInteger threads = new AtomicInteger();
    executor =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "fake-apiserver-" + threads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a server on a free port of 127.0.0.1, with the system clock for timestamps. */
  public static FakeApiServer start() {
    return start(Clock.systemUTC());
  }

  /** Starts a server on a free port of 127.0.0.1; {@code clock} stamps creation timestamps. */
  public static FakeApiServer start(Clock clock) {
    try {
      return new FakeApiServer(clock);
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the fake API server", e);
    }
  }

  /** Returns the base URL, e.g. {@code http://127.0.0.1:41234}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Returns a new client-java client for this server, with no read timeout (for informers). */
  public ApiClient client() {
    return new ClientBuilder().setBasePath(url()).setReadTimeout(Duration.ZERO).build();
  }

  /** Returns the latest resourceVersion handed out. */
  public long resourceVersion() {
    synchronized (lock) {
      return resourceVersion;
    }
  }

  /** Stops the server and ends every open watch. */
  @Override
  public void close() {
    for (Watcher w : watchers) {
      w.lines().offer(POISON);
    }
    server.stop(0);
    executor.shutdownNow();
  }

  // ---------------------------------------------------------------- dispatch

  private void handle(HttpExchange ex) throws IOException {
    try {
      Map<String, String> query = query(ex.getRequestURI().getRawQuery());
      Target t = target(ex.getRequestURI().getRawPath());
      String method = ex.getRequestMethod();
      if (method.equals("GET") && t.name() == null) {
        if (isTrue(query.get("watch"))) {
          watch(ex, t, query);
        } else {
          send(ex, 200, list(t, query));
        }
        return;
      }
      JsonObject out;
      int code = 200;
      switch (method) {
        case "GET" -> out = get(t);
        case "POST" -> {
          JsonObject body = body(ex);
          if (t.name() != null && "binding".equals(t.sub()) && t.res().plural().equals("pods")) {
            out = bind(t, body);
          } else if (t.name() == null) {
            out = create(t, body);
          } else {
            throw new ApiError(405, "MethodNotAllowed", "POST is not allowed on this path");
          }
          code = 201;
        }
        case "PUT" -> out = update(t, body(ex));
        case "PATCH" -> out = patch(t, ex.getRequestHeaders().getFirst("Content-Type"), body(ex));
        case "DELETE" -> out = delete(t, ex);
        default -> throw new ApiError(405, "MethodNotAllowed", method + " is not allowed");
      }
      send(ex, code, out);
    } catch (ApiError e) {
      send(ex, e.code, status(e.code, e.reason, e.getMessage()));
    } catch (RuntimeException e) {
      send(ex, 500, status(500, "InternalError", String.valueOf(e)));
    } finally {
      ex.close();
    }
  }

  private static boolean isTrue(String v) {
    return "true".equals(v) || "1".equals(v);
  }

  private Target target(String rawPath) throws ApiError {
    List<String> s = new ArrayList<>();
    for (String p : rawPath.split("/")) {
      if (!p.isEmpty()) {
        s.add(URLDecoder.decode(p, StandardCharsets.UTF_8));
      }
    }
    String group;
    String version;
    int from;
    if (s.size() >= 3 && s.get(0).equals("api")) {
      group = "";
      version = s.get(1);
      from = 2;
    } else if (s.size() >= 4 && s.get(0).equals("apis")) {
      group = s.get(1);
      version = s.get(2);
      from = 3;
    } else {
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    List<String> rest = s.subList(from, s.size());
    String namespace = null;
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      Resource r = resource(group, version, rest.get(2));
      if (r != null && r.namespaced()) {
        namespace = rest.get(1);
        rest = rest.subList(2, rest.size());
      }
    }
    Resource r = resource(group, version, rest.get(0));
    if (r == null || rest.size() > 3) {
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    String name = rest.size() > 1 ? rest.get(1) : null;
    String sub = rest.size() > 2 ? rest.get(2) : null;
    if (sub != null && !sub.equals("status") && !sub.equals("binding")) {
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    if (r.namespaced() && namespace == null && name != null) {
      throw new ApiError(404, "NotFound", "the server could not find the requested resource");
    }
    return new Target(r, namespace, name, sub);
  }

  private static Resource resource(String group, String version, String plural) {
    for (Resource r : RESOURCES) {
      if (r.group().equals(group) && r.version().equals(version) && r.plural().equals(plural)) {
        return r;
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- verbs

  private JsonObject list(Target t, Map<String, String> query) throws ApiError {
    Selector sel = Selector.parse(query.get("labelSelector"), query.get("fieldSelector"));
    JsonArray items = new JsonArray();
    long rv;
    synchronized (lock) {
      rv = resourceVersion;
      for (JsonObject o : store(t.res()).values()) {
        if (inScope(o, t.namespace()) && sel.matches(o)) {
          items.add(o.deepCopy());
        }
      }
    }
    JsonObject out = new JsonObject();
    out.addProperty("apiVersion", t.res().apiVersion());
    out.addProperty("kind", t.res().kind() + "List");
    JsonObject meta = new JsonObject();
    meta.addProperty("resourceVersion", Long.toString(rv));
    out.add("metadata", meta);
    out.add("items", items);
    return out;
  }

  private JsonObject get(Target t) throws ApiError {
    synchronized (lock) {
      return existing(t).deepCopy();
    }
  }

  private JsonObject create(Target t, JsonObject body) throws ApiError {
    Resource r = t.res();
    fillTypeMeta(body, r);
    JsonObject meta = object(body, "metadata");
    if (r.namespaced()) {
      String ns = t.namespace() == null ? str(meta, "namespace") : t.namespace();
      if (ns == null || ns.isEmpty()) {
        throw new ApiError(400, "BadRequest", "the namespace of the object is required");
      }
      String given = str(meta, "namespace");
      if (given != null && !given.isEmpty() && !given.equals(ns)) {
        throw new ApiError(
            400,
            "BadRequest",
            "the namespace of the provided object does not match the namespace sent on the"
                + " request");
      }
      meta.addProperty("namespace", ns);
    } else {
      meta.remove("namespace");
    }
    String name = str(meta, "name");
    if ((name == null || name.isEmpty()) && str(meta, "generateName") != null) {
      name = str(meta, "generateName") + randomSuffix();
      meta.addProperty("name", name);
    }
    if (name == null || name.isEmpty()) {
      throw new ApiError(
          422,
          "Invalid",
          r.kind()
              + " \"\" is invalid: metadata.name: Required value: name or"
              + " generateName is required");
    }
    meta.addProperty("uid", UUID.randomUUID().toString());
    meta.addProperty(
        "creationTimestamp", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
    if (r.plural().equals("pods")) {
      JsonObject status = object(body, "status");
      if (!status.has("phase")) {
        status.addProperty("phase", "Pending");
      }
    } else if (r.plural().equals("namespaces")) {
      object(meta, "labels").addProperty("kubernetes.io/metadata.name", name);
      object(body, "status").addProperty("phase", "Active");
    }
    synchronized (lock) {
      String key = key(r, str(meta, "namespace"), name);
      if (store(r).containsKey(key)) {
        throw new ApiError(409, "AlreadyExists", r.plural() + " \"" + name + "\" already exists");
      }
      return commit(r, key, "ADDED", null, body);
    }
  }

  private JsonObject update(Target t, JsonObject body) throws ApiError {
    Resource r = t.res();
    fillTypeMeta(body, r);
    synchronized (lock) {
      JsonObject old = existing(t);
      String given = str(object(body, "metadata"), "resourceVersion");
      if (given != null && !given.isEmpty() && !given.equals(rvOf(old))) {
        throw conflict(r, t.name());
      }
      JsonObject next;
      if ("status".equals(t.sub())) {
        next = old.deepCopy();
        next.add("status", body.has("status") ? body.get("status") : new JsonObject());
      } else {
        next = body;
        keepServerFields(old, next, r);
      }
      return commit(r, keyOf(t), "MODIFIED", old, next);
    }
  }

  private JsonObject patch(Target t, String contentType, JsonObject patch) throws ApiError {
    Resource r = t.res();
    String type = contentType == null ? "" : contentType.split(";")[0].trim();
    boolean strategic;
    if (type.equals("application/merge-patch+json")) {
      strategic = false;
    } else if (type.equals("application/strategic-merge-patch+json")) {
      strategic = true;
    } else {
      throw new ApiError(
          415, "UnsupportedMediaType", "the fake API server does not support patch type " + type);
    }
    synchronized (lock) {
      JsonObject old = existing(t);
      String given =
          patch.has("metadata") ? str(object(patch, "metadata"), "resourceVersion") : null;
      if (given != null && !given.isEmpty() && !given.equals(rvOf(old))) {
        throw conflict(r, t.name());
      }
      JsonElement merged =
          strategic
              ? strategicMerge(old.deepCopy(), patch, null)
              : mergePatch(old.deepCopy(), patch);
      if (!merged.isJsonObject()) {
        throw new ApiError(400, "BadRequest", "the patch does not result in an object");
      }
      JsonObject next;
      if ("status".equals(t.sub())) {
        next = old.deepCopy();
        JsonElement s = merged.getAsJsonObject().get("status");
        next.add("status", s == null ? new JsonObject() : s);
      } else {
        next = merged.getAsJsonObject();
        keepServerFields(old, next, r);
      }
      return commit(r, keyOf(t), "MODIFIED", old, next);
    }
  }

  private JsonObject delete(Target t, HttpExchange ex) throws ApiError, IOException {
    Resource r = t.res();
    JsonObject options = bodyOrEmpty(ex);
    synchronized (lock) {
      JsonObject old = existing(t);
      if (options.has("preconditions") && options.get("preconditions").isJsonObject()) {
        JsonObject pre = options.getAsJsonObject("preconditions");
        String uid = str(pre, "uid");
        String rv = str(pre, "resourceVersion");
        JsonObject meta = old.getAsJsonObject("metadata");
        if (uid != null && !uid.equals(str(meta, "uid"))) {
          throw new ApiError(
              409,
              "Conflict",
              "Operation cannot be fulfilled on "
                  + r.plural()
                  + " \""
                  + t.name()
                  + "\": Precondition failed: UID in precondition: "
                  + uid
                  + ", UID in object meta: "
                  + str(meta, "uid"));
        }
        if (rv != null && !rv.equals(rvOf(old))) {
          throw conflict(r, t.name());
        }
      }
      String key = keyOf(t);
      store(r).remove(key);
      JsonObject last = old.deepCopy();
      long rv = ++resourceVersion;
      last.getAsJsonObject("metadata").addProperty("resourceVersion", Long.toString(rv));
      record(new Change(rv, r, "DELETED", old, last));
      if (r.plural().equals("pods")) {
        return last.deepCopy();
      }
      JsonObject s = new JsonObject();
      s.addProperty("apiVersion", "v1");
      s.addProperty("kind", "Status");
      s.add("metadata", new JsonObject());
      s.addProperty("status", "Success");
      JsonObject details = new JsonObject();
      details.addProperty("name", t.name());
      details.addProperty("kind", r.plural());
      details.addProperty("uid", str(old.getAsJsonObject("metadata"), "uid"));
      s.add("details", details);
      return s;
    }
  }

  private JsonObject bind(Target t, JsonObject binding) throws ApiError {
    JsonObject target = binding.has("target") ? binding.getAsJsonObject("target") : null;
    String node = target == null ? null : str(target, "name");
    if (node == null || node.isEmpty()) {
      throw new ApiError(
          422,
          "Invalid",
          "Binding.core \"" + t.name() + "\" is invalid: target.name: Required value");
    }
    synchronized (lock) {
      JsonObject old = existing(t);
      JsonObject meta = old.getAsJsonObject("metadata");
      String uid = binding.has("metadata") ? str(object(binding, "metadata"), "uid") : null;
      if (uid != null && !uid.isEmpty() && !uid.equals(str(meta, "uid"))) {
        throw bindingConflict(
            t.name(),
            "Precondition failed: UID in precondition: "
                + uid
                + ", UID in object meta: "
                + str(meta, "uid"));
      }
      if (meta.has("deletionTimestamp") && !meta.get("deletionTimestamp").isJsonNull()) {
        throw bindingConflict(
            t.name(), "pod " + t.name() + " is being deleted, cannot be assigned to a host");
      }
      JsonObject spec = object(old.deepCopy(), "spec");
      String current = str(spec, "nodeName");
      if (current != null && !current.isEmpty()) {
        throw bindingConflict(
            t.name(), "pod " + t.name() + " is already assigned to node \"" + current + "\"");
      }
      JsonObject next = old.deepCopy();
      object(next, "spec").addProperty("nodeName", node);
      JsonObject status = object(next, "status");
      JsonArray conditions =
          status.has("conditions") && status.get("conditions").isJsonArray()
              ? status.getAsJsonArray("conditions")
              : new JsonArray();
      JsonArray kept = new JsonArray();
      for (JsonElement c : conditions) {
        if (!(c.isJsonObject() && "PodScheduled".equals(str(c.getAsJsonObject(), "type")))) {
          kept.add(c);
        }
      }
      JsonObject scheduled = new JsonObject();
      scheduled.addProperty("type", "PodScheduled");
      scheduled.addProperty("status", "True");
      scheduled.addProperty(
          "lastTransitionTime", clock.instant().truncatedTo(ChronoUnit.SECONDS).toString());
      kept.add(scheduled);
      status.add("conditions", kept);
      commit(t.res(), keyOf(t), "MODIFIED", old, next);
    }
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", "Success");
    s.addProperty("code", 201);
    return s;
  }

  // ---------------------------------------------------------------- watch

  private void watch(HttpExchange ex, Target t, Map<String, String> query)
      throws ApiError, IOException {
    Selector sel = Selector.parse(query.get("labelSelector"), query.get("fieldSelector"));
    String from = query.get("resourceVersion");
    long timeout = 1800;
    if (query.get("timeoutSeconds") != null) {
      try {
        timeout = Long.parseLong(query.get("timeoutSeconds"));
      } catch (NumberFormatException e) {
        throw new ApiError(400, "BadRequest", "invalid timeoutSeconds");
      }
    }
    Watcher w = new Watcher(t.res(), t.namespace(), sel, new LinkedBlockingQueue<>());
    synchronized (lock) {
      if (from == null || from.isEmpty() || from.equals("0")) {
        for (JsonObject o : store(t.res()).values()) {
          if (inScope(o, t.namespace()) && sel.matches(o)) {
            w.lines().add(line("ADDED", o));
          }
        }
      } else {
        long since;
        try {
          since = Long.parseLong(from);
        } catch (NumberFormatException e) {
          throw new ApiError(400, "BadRequest", "invalid resourceVersion " + from);
        }
        for (Change c : log) {
          if (c.rv() > since && c.res().equals(t.res())) {
            String l = translate(w, c);
            if (l != null) {
              w.lines().add(l);
            }
          }
        }
      }
      watchers.add(w);
    }
    try {
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.getResponseHeaders().set("Transfer-Encoding", "chunked");
      ex.sendResponseHeaders(200, 0);
      OutputStream out = ex.getResponseBody();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout);
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        String l = w.lines().poll(left, TimeUnit.NANOSECONDS);
        if (l == null || l.equals(POISON)) {
          break;
        }
        out.write(l.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away
    } finally {
      watchers.remove(w);
    }
  }

  private String translate(Watcher w, Change c) {
    if (!w.res().equals(c.res())) {
      return null;
    }
    boolean oldIn =
        c.oldObj() != null
            && inScope(c.oldObj(), w.namespace())
            && w.selector().matches(c.oldObj());
    boolean newIn =
        c.newObj() != null
            && inScope(c.newObj(), w.namespace())
            && w.selector().matches(c.newObj());
    return switch (c.type()) {
      case "ADDED" -> newIn ? line("ADDED", c.newObj()) : null;
      case "DELETED" -> oldIn ? line("DELETED", c.newObj()) : null;
      default -> {
        if (oldIn && newIn) {
          yield line("MODIFIED", c.newObj());
        } else if (newIn) {
          yield line("ADDED", c.newObj());
        } else if (oldIn) {
          yield line("DELETED", c.newObj());
        }
        yield null;
      }
    };
  }

  private String line(String type, JsonObject o) {
    JsonObject e = new JsonObject();
    e.addProperty("type", type);
    e.add("object", o);
    return gson.toJson(e);
  }

  // ---------------------------------------------------------------- store

  /** Stores {@code next} under {@code key} with a fresh resourceVersion; caller holds the lock. */
  private JsonObject commit(Resource r, String key, String type, JsonObject old, JsonObject next) {
    long rv = ++resourceVersion;
    object(next, "metadata").addProperty("resourceVersion", Long.toString(rv));
    store(r).put(key, next);
    record(new Change(rv, r, type, old, next));
    return next.deepCopy();
  }

  private void record(Change c) {
    log.add(c);
    for (Watcher w : watchers) {
      String l = translate(w, c);
      if (l != null) {
        w.lines().add(l);
      }
    }
  }

  private TreeMap<String, JsonObject> store(Resource r) {
    return stores.computeIfAbsent(r.key(), k -> new TreeMap<>());
  }

  private JsonObject existing(Target t) throws ApiError {
    JsonObject o = store(t.res()).get(keyOf(t));
    if (o == null) {
      throw new ApiError(404, "NotFound", t.res().plural() + " \"" + t.name() + "\" not found");
    }
    return o;
  }

  private static String keyOf(Target t) {
    return key(t.res(), t.namespace(), t.name());
  }

  private static String key(Resource r, String namespace, String name) {
    return (r.namespaced() ? namespace : "") + "/" + name;
  }

  private static boolean inScope(JsonObject o, String namespace) {
    return namespace == null || namespace.equals(str(o.getAsJsonObject("metadata"), "namespace"));
  }

  private static String rvOf(JsonObject o) {
    return str(o.getAsJsonObject("metadata"), "resourceVersion");
  }

  private static void fillTypeMeta(JsonObject o, Resource r) {
    if (!o.has("apiVersion") || o.get("apiVersion").isJsonNull()) {
      o.addProperty("apiVersion", r.apiVersion());
    }
    if (!o.has("kind") || o.get("kind").isJsonNull()) {
      o.addProperty("kind", r.kind());
    }
  }

  /** Keeps what the client cannot change with an update of the main resource. */
  private static void keepServerFields(JsonObject old, JsonObject next, Resource r) {
    JsonObject om = old.getAsJsonObject("metadata");
    JsonObject nm = object(next, "metadata");
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

  private String randomSuffix() {
    String alphabet = "bcdfghjklmnpqrstvwxz2456789";
    int n = generated.incrementAndGet() * 7919 + 12345;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(alphabet.charAt(Math.floorMod(n, alphabet.length())));
      n /= alphabet.length();
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- patches

  /** Applies an RFC 7386 JSON merge patch to {@code target}. */
  static JsonElement mergePatch(JsonElement target, JsonElement patch) {
    if (!patch.isJsonObject()) {
      return patch.deepCopy();
    }
    JsonObject result =
        target != null && target.isJsonObject() ? target.getAsJsonObject() : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }

  /**
   * Applies a strategic merge patch: like a JSON merge patch, but lists named in {@link
   * #MERGE_KEYS} are merged element by element on their key; directives ({@code $...} keys) are
   * ignored.
   */
  static JsonElement strategicMerge(JsonElement target, JsonElement patch, String field) {
    if (patch.isJsonArray()) {
      String mergeKey = field == null ? null : MERGE_KEYS.get(field);
      if (mergeKey == null || target == null || !target.isJsonArray()) {
        return patch.deepCopy();
      }
      JsonArray result = target.getAsJsonArray();
      for (JsonElement p : patch.getAsJsonArray()) {
        if (!p.isJsonObject() || !p.getAsJsonObject().has(mergeKey)) {
          result.add(p.deepCopy());
          continue;
        }
        JsonElement k = p.getAsJsonObject().get(mergeKey);
        boolean delete = "delete".equals(str(p.getAsJsonObject(), "$patch"));
        int found = -1;
        for (int i = 0; i < result.size(); i++) {
          JsonElement c = result.get(i);
          if (c.isJsonObject() && k.equals(c.getAsJsonObject().get(mergeKey))) {
            found = i;
            break;
          }
        }
        if (delete) {
          if (found >= 0) {
            result.remove(found);
          }
        } else if (found >= 0) {
          result.set(found, strategicMerge(result.get(found), p, null));
        } else {
          result.add(strategicMerge(new JsonObject(), p, null));
        }
      }
      return result;
    }
    if (!patch.isJsonObject()) {
      return patch.deepCopy();
    }
    JsonObject result =
        target != null && target.isJsonObject() ? target.getAsJsonObject() : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getKey().startsWith("$")) {
        continue;
      }
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), strategicMerge(result.get(e.getKey()), e.getValue(), e.getKey()));
      }
    }
    return result;
  }

  // ---------------------------------------------------------------- HTTP helpers

  private static JsonObject body(HttpExchange ex) throws IOException, ApiError {
    return bodyOrEmpty(ex);
  }

  private static JsonObject bodyOrEmpty(HttpExchange ex) throws IOException, ApiError {
    byte[] bytes;
    try (InputStream in = ex.getRequestBody()) {
      bytes = in.readAllBytes();
    }
    if (bytes.length == 0) {
      return new JsonObject();
    }
    try {
      JsonElement e = JsonParser.parseString(new String(bytes, StandardCharsets.UTF_8));
      if (!e.isJsonObject()) {
        throw new ApiError(400, "BadRequest", "the request body is not a JSON object");
      }
      return e.getAsJsonObject();
    } catch (JsonParseException e) {
      throw new ApiError(400, "BadRequest", "the request body is not JSON: " + e.getMessage());
    }
  }

  private void send(HttpExchange ex, int code, JsonObject body) throws IOException {
    byte[] bytes = gson.toJson(body).getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static JsonObject status(int code, String reason, String message) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", "Failure");
    s.addProperty("message", message);
    s.addProperty("reason", reason);
    s.addProperty("code", code);
    return s;
  }

  private static ApiError conflict(Resource r, String name) {
    return new ApiError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on "
            + r.plural()
            + (r.group().isEmpty() ? "" : "." + r.group())
            + " \""
            + name
            + "\": the object has been modified; please apply your changes to the latest version"
            + " and try again");
  }

  private static ApiError bindingConflict(String name, String detail) {
    return new ApiError(
        409,
        "Conflict",
        "Operation cannot be fulfilled on pods/binding \"" + name + "\": " + detail);
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String kv : raw.split("&")) {
      int i = kv.indexOf('=');
      String k = URLDecoder.decode(i < 0 ? kv : kv.substring(0, i), StandardCharsets.UTF_8);
      String v = i < 0 ? "" : URLDecoder.decode(kv.substring(i + 1), StandardCharsets.UTF_8);
      q.put(k, v);
    }
    return q;
  }

  private static JsonObject object(JsonObject parent, String field) {
    JsonElement e = parent.get(field);
    if (e == null || !e.isJsonObject()) {
      JsonObject o = new JsonObject();
      parent.add(field, o);
      return o;
    }
    return e.getAsJsonObject();
  }

  private static String str(JsonObject o, String field) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(field);
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  // ---------------------------------------------------------------- selectors

  /** Label and field selectors of a list or watch. */
  private record Selector(List<Requirement> labels, List<Requirement> fields) {
    static Selector parse(String labelSelector, String fieldSelector) throws ApiError {
      return new Selector(requirements(labelSelector, true), requirements(fieldSelector, false));
    }

    boolean matches(JsonObject o) {
      JsonObject meta = o.getAsJsonObject("metadata");
      JsonElement labels = meta == null ? null : meta.get("labels");
      Map<String, String> l = new HashMap<>();
      if (labels != null && labels.isJsonObject()) {
        for (Map.Entry<String, JsonElement> e : labels.getAsJsonObject().entrySet()) {
          l.put(e.getKey(), e.getValue().isJsonNull() ? "" : e.getValue().getAsString());
        }
      }
      for (Requirement r : labels()) {
        if (!r.matches(l.containsKey(r.key()), l.get(r.key()))) {
          return false;
        }
      }
      for (Requirement r : fields()) {
        String v = field(o, r.key());
        if (!r.matches(true, v == null ? "" : v)) {
          return false;
        }
      }
      return true;
    }

    private static String field(JsonObject o, String path) {
      JsonElement cur = o;
      for (String p : path.split("\\.")) {
        if (cur == null || !cur.isJsonObject()) {
          return null;
        }
        cur = cur.getAsJsonObject().get(p);
      }
      return cur == null || cur.isJsonNull() || !cur.isJsonPrimitive() ? null : cur.getAsString();
    }

    private static List<Requirement> requirements(String s, boolean labels) throws ApiError {
      List<Requirement> out = new ArrayList<>();
      if (s == null || s.isBlank()) {
        return out;
      }
      List<String> parts = new ArrayList<>();
      int depth = 0;
      int start = 0;
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '(') {
          depth++;
        } else if (c == ')') {
          depth--;
        } else if (c == ',' && depth == 0) {
          parts.add(s.substring(start, i));
          start = i + 1;
        }
      }
      parts.add(s.substring(start));
      for (String raw : parts) {
        String p = raw.trim();
        int ne = p.indexOf("!=");
        int eq = p.indexOf('=');
        if (ne >= 0) {
          out.add(
              new Requirement(
                  p.substring(0, ne).trim(), "!=", List.of(p.substring(ne + 2).trim())));
        } else if (eq >= 0) {
          int skip = p.startsWith("==", eq) ? 2 : 1;
          out.add(
              new Requirement(
                  p.substring(0, eq).trim(), "=", List.of(p.substring(eq + skip).trim())));
        } else if (labels && p.contains("(")) {
          String[] head = p.substring(0, p.indexOf('(')).trim().split("\\s+");
          if (head.length != 2 || !(head[1].equals("in") || head[1].equals("notin"))) {
            throw new ApiError(400, "BadRequest", "unable to parse requirement: " + p);
          }
          List<String> values = new ArrayList<>();
          for (String v : p.substring(p.indexOf('(') + 1, p.lastIndexOf(')')).split(",")) {
            if (!v.isBlank()) {
              values.add(v.trim());
            }
          }
          out.add(new Requirement(head[0], head[1], values));
        } else if (labels && p.startsWith("!")) {
          out.add(new Requirement(p.substring(1).trim(), "!exists", List.of()));
        } else if (labels && !p.isEmpty()) {
          out.add(new Requirement(p, "exists", List.of()));
        } else {
          throw new ApiError(400, "BadRequest", "invalid selector: '" + s + "'");
        }
      }
      return out;
    }
  }

  /** One requirement of a selector. */
  private record Requirement(String key, String op, List<String> values) {
    boolean matches(boolean present, String value) {
      return switch (op) {
        case "=" -> present && values.get(0).equals(value);
        case "!=" -> !present || !values.get(0).equals(value);
        case "in" -> present && values.contains(value);
        case "notin" -> !present || !values.contains(value);
        case "exists" -> present;
        default -> !present;
      };
    }
  }
}
