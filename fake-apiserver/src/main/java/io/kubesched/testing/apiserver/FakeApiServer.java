package io.kubesched.testing.apiserver;

import static io.kubesched.testing.apiserver.Json.object;
import static io.kubesched.testing.apiserver.Json.str;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import io.kubesched.testing.apiserver.Routing.Target;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process Kubernetes API server for end-to-end tests of schedulers built on client-java: it
 * keeps objects in memory and speaks the real wire protocol on {@code http://127.0.0.1:PORT}.
 *
 * <p>Served resources: core/v1 {@code nodes}, {@code pods}, {@code namespaces}, {@code events},
 * {@code services}, {@code replicationcontrollers}; apps/v1 {@code replicasets}, {@code
 * statefulsets}; events.k8s.io/v1 {@code events}; policy/v1 {@code poddisruptionbudgets};
 * scheduling.k8s.io/v1 {@code priorityclasses}; coordination.k8s.io/v1 {@code leases}; core/v1
 * {@code persistentvolumes}, {@code persistentvolumeclaims}; storage.k8s.io/v1 {@code
 * storageclasses}, {@code csinodes}, {@code csidrivers}, {@code csistoragecapacities}; custom
 * resources declared with {@link #serveCustomResource}. Supported: get, list (with label and field
 * selectors, e.g. {@code spec.nodeName!=}), streaming watch resuming from {@code resourceVersion}
 * (objects leaving a selector are reported as {@code DELETED}, entering it as {@code ADDED}),
 * create (with {@code generateName}), update (a stale {@code resourceVersion} is a {@code 409
 * Conflict}), JSON merge patch (RFC 7386) and strategic merge patch (lists keyed like Kubernetes'
 * for {@code conditions}, {@code containers}, ...), delete (with uid/resourceVersion
 * preconditions), the {@code status} subresource and {@code POST pods/NAME/binding} and the {@code
 * POST bindings} collection (both answer {@code 201} with a {@code v1.Status}, {@code 409} when the
 * pod is already bound). Faults can be injected ({@link #faults()}, {@link #cutWatches()}). Not
 * supported: JSON patch, server-side apply, paging ({@code limit} is ignored), deletion grace
 * periods (objects go at once), admission and validation.
 *
 * <p>Thread-safe. Close it to stop the server and end every open watch.
 *
 * <p>The request path is parsed by {@link Routing}, objects live in the {@link ObjectStore},
 * watches are served from the {@link WatchLog}, patches are applied by {@link Patches} and
 * selectors evaluated by {@link Selector}; this class runs the HTTP server and the verbs.
 */
public final class FakeApiServer implements AutoCloseable {
  private final Clock clock;
  private final ObjectStore store = new ObjectStore();
  private final Faults faults;
  private final HttpServer server;
  private final ExecutorService executor;
  private final List<Resource> customResources = new CopyOnWriteArrayList<>();

  private FakeApiServer(Clock clock) throws IOException {
    this.clock = clock;
    this.faults = new Faults(Clock.systemUTC());
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

  /**
   * Writes to {@code file} a kubeconfig whose current context reaches this server (a token user, as
   * the server does not authenticate), for commands under test that take {@code --kubeconfig};
   * returns {@code file}.
   *
   * @throws IOException when the file cannot be written
   */
  public Path writeKubeconfig(Path file) throws IOException {
    return Files.writeString(file, kubeconfig(url()));
  }

  /** Returns the text of a kubeconfig whose current context reaches {@code serverUrl}. */
  public static String kubeconfig(String serverUrl) {
    return String.join(
        "\n",
        "apiVersion: v1",
        "kind: Config",
        "clusters:",
        "- name: fake",
        "  cluster:",
        "    server: " + serverUrl,
        "users:",
        "- name: me",
        "  user:",
        "    token: test",
        "contexts:",
        "- name: fake",
        "  context:",
        "    cluster: fake",
        "    user: me",
        "current-context: fake",
        "");
  }

  /** Returns a new client-java client for this server, with no read timeout (for informers). */
  public ApiClient client() {
    return new ClientBuilder().setBasePath(url()).setReadTimeout(Duration.ZERO).build();
  }

  /**
   * Serves a custom resource, as if its CustomResourceDefinition had been created: the same verbs
   * as the built-in resources, with the {@code status} subresource, on {@code
   * /apis/GROUP/VERSION/[namespaces/NS/]PLURAL}. Objects are stored as given (no schema).
   *
   * @param group e.g. {@code scheduling.x-k8s.io}
   * @param version e.g. {@code v1alpha1}
   * @param plural e.g. {@code podgroups}
   * @param kind e.g. {@code PodGroup}
   * @param namespaced whether objects live in namespaces
   */
  public void serveCustomResource(
      String group, String version, String plural, String kind, boolean namespaced) {
    customResources.add(new Resource(group, version, plural, kind, namespaced));
  }

  /** Returns the latest resourceVersion handed out. */
  public long resourceVersion() {
    return store.resourceVersion();
  }

  /** Returns the faults this server injects (none until set); see {@link Faults}. */
  public Faults faults() {
    return faults;
  }

  /** Ends every open watch stream now, as a restarting server or a broken connection would. */
  public void cutWatches() {
    store.watchLog().closeAll();
  }

  /** Stops the server and ends every open watch. */
  @Override
  public void close() {
    store.watchLog().closeAll();
    server.stop(0);
    executor.shutdownNow();
  }

  // ---------------------------------------------------------------- dispatch

  private void handle(HttpExchange ex) throws IOException {
    boolean lose = false;
    try {
      Duration delay = faults.latency();
      if (!delay.isZero()) {
        Thread.sleep(delay.toMillis());
      }
      Map<String, String> query = Routing.query(ex.getRequestURI().getRawQuery());
      String method = ex.getRequestMethod();
      java.util.regex.Matcher bindings = BINDINGS.matcher(ex.getRequestURI().getRawPath());
      if (bindings.matches()) {
        // The bindings collection: POST a Binding named like the pod (as the real server).
        if (!method.equals("POST")) {
          throw new ApiError(405, "MethodNotAllowed", method + " is not allowed on bindings");
        }
        lose = faults.before("create", "bindings");
        JsonObject body = body(ex);
        String name = body.has("metadata") ? str(object(body, "metadata"), "name") : null;
        if (name == null || name.isEmpty()) {
          throw new ApiError(
              422, "Invalid", "Binding.core \"\" is invalid: metadata.name: Required value");
        }
        String ns = java.net.URLDecoder.decode(bindings.group(1), StandardCharsets.UTF_8);
        JsonObject out =
            bind(new Target(Resource.find("", "v1", "pods"), ns, name, "binding"), body);
        if (!lose) {
          send(ex, 201, out);
        }
        return;
      }
      Target t = Routing.target(ex.getRequestURI().getRawPath(), customResources);
      String resource = t.res().plural() + (t.sub() == null ? "" : "/" + t.sub());
      if (method.equals("GET") && t.name() == null) {
        boolean watch = Routing.isTrue(query.get("watch"));
        lose = faults.before(watch ? "watch" : "list", resource);
        if (lose) {
          return;
        }
        if (watch) {
          watch(ex, t, query);
        } else {
          send(ex, 200, list(t, query));
        }
        return;
      }
      lose = faults.before(verb(method, t), resource);
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
      if (!lose) {
        send(ex, code, out);
      }
    } catch (ApiError e) {
      if (e.code == 429) {
        ex.getResponseHeaders().set("Retry-After", "1");
      }
      send(ex, e.code, Json.failure(e.code, e.reason, e.getMessage()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      send(ex, 500, Json.failure(500, "InternalError", String.valueOf(e)));
    } finally {
      ex.close();
    }
  }

  private static final java.util.regex.Pattern BINDINGS =
      java.util.regex.Pattern.compile("^/api/v1/namespaces/([^/]+)/bindings/?$");

  /** Returns the Kubernetes verb of a request for one object or a collection. */
  private static String verb(String method, Target t) {
    return switch (method) {
      case "GET" -> "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> "delete";
      default -> method.toLowerCase(java.util.Locale.ROOT);
    };
  }

  // ---------------------------------------------------------------- verbs

  private JsonObject list(Target t, Map<String, String> query) throws ApiError {
    Selector sel = Selector.parse(query.get("labelSelector"), query.get("fieldSelector"));
    JsonArray items = new JsonArray();
    long rv;
    synchronized (store.lock()) {
      rv = store.resourceVersion();
      for (JsonObject o : store.objects(t.res()).values()) {
        if (ObjectStore.inScope(o, t.namespace()) && sel.matches(o)) {
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
    synchronized (store.lock()) {
      return store.existing(t).deepCopy();
    }
  }

  private JsonObject create(Target t, JsonObject body) throws ApiError {
    Resource r = t.res();
    ObjectStore.fillTypeMeta(body, r);
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
      name = str(meta, "generateName") + store.randomSuffix();
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
    synchronized (store.lock()) {
      String key = ObjectStore.key(r, str(meta, "namespace"), name);
      if (store.objects(r).containsKey(key)) {
        throw new ApiError(409, "AlreadyExists", r.plural() + " \"" + name + "\" already exists");
      }
      return store.commit(r, key, "ADDED", null, body);
    }
  }

  private JsonObject update(Target t, JsonObject body) throws ApiError {
    Resource r = t.res();
    ObjectStore.fillTypeMeta(body, r);
    synchronized (store.lock()) {
      JsonObject old = store.existing(t);
      String given = str(object(body, "metadata"), "resourceVersion");
      if (given != null && !given.isEmpty() && !given.equals(ObjectStore.rvOf(old))) {
        throw ApiError.conflict(r, t.name());
      }
      JsonObject next;
      if ("status".equals(t.sub())) {
        next = old.deepCopy();
        next.add("status", body.has("status") ? body.get("status") : new JsonObject());
      } else {
        next = body;
        ObjectStore.keepServerFields(old, next, r);
      }
      return store.commit(r, ObjectStore.keyOf(t), "MODIFIED", old, next);
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
    synchronized (store.lock()) {
      JsonObject old = store.existing(t);
      String given =
          patch.has("metadata") ? str(object(patch, "metadata"), "resourceVersion") : null;
      if (given != null && !given.isEmpty() && !given.equals(ObjectStore.rvOf(old))) {
        throw ApiError.conflict(r, t.name());
      }
      JsonElement merged =
          strategic
              ? Patches.strategicMerge(old.deepCopy(), patch, null)
              : Patches.mergePatch(old.deepCopy(), patch);
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
        ObjectStore.keepServerFields(old, next, r);
      }
      return store.commit(r, ObjectStore.keyOf(t), "MODIFIED", old, next);
    }
  }

  private JsonObject delete(Target t, HttpExchange ex) throws ApiError, IOException {
    Resource r = t.res();
    JsonObject options = bodyOrEmpty(ex);
    synchronized (store.lock()) {
      JsonObject old = store.existing(t);
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
        if (rv != null && !rv.equals(ObjectStore.rvOf(old))) {
          throw ApiError.conflict(r, t.name());
        }
      }
      JsonObject last = store.remove(r, ObjectStore.keyOf(t), old);
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
    synchronized (store.lock()) {
      JsonObject old = store.existing(t);
      JsonObject meta = old.getAsJsonObject("metadata");
      String uid = binding.has("metadata") ? str(object(binding, "metadata"), "uid") : null;
      if (uid != null && !uid.isEmpty() && !uid.equals(str(meta, "uid"))) {
        throw ApiError.bindingConflict(
            t.name(),
            "Precondition failed: UID in precondition: "
                + uid
                + ", UID in object meta: "
                + str(meta, "uid"));
      }
      if (meta.has("deletionTimestamp") && !meta.get("deletionTimestamp").isJsonNull()) {
        throw ApiError.bindingConflict(
            t.name(), "pod " + t.name() + " is being deleted, cannot be assigned to a host");
      }
      JsonObject spec = object(old.deepCopy(), "spec");
      String current = str(spec, "nodeName");
      if (current != null && !current.isEmpty()) {
        throw ApiError.bindingConflict(
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
      store.commit(t.res(), ObjectStore.keyOf(t), "MODIFIED", old, next);
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
    WatchLog.Watcher w = store.watch(t, sel, from);
    store.watchLog().stream(ex, w, timeout);
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
    byte[] bytes = Json.GSON.toJson(body).getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }
}
