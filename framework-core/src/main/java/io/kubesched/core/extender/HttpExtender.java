package io.kubesched.core.extender;

import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code HttpExtender} calls a kube-scheduler HTTP extender (kube's {@code HTTPExtender}): each
 * verb is a {@code POST <urlPrefix>/<verb>} with a JSON body in the format of {@link ExtenderWire},
 * answered with 200 and a JSON result; any other status code, a transport failure or a timeout
 * ({@code httpTimeout}, 5 s when unset) is an error.
 *
 * <p>The scheduler calls it as kube-scheduler does: filter after the Filter plugins (errors fail
 * the cycle unless the extender is ignorable), prioritize next to the Score plugins (errors
 * ignored), bind before the Bind plugins, and preemption after the dry run. Only pods requesting or
 * limiting one of the {@code managedResources} (any, when none are listed) are sent.
 *
 * <p>Instances are thread-safe; prioritize calls of several extenders run in parallel.
 */
public final class HttpExtender implements SchedulerExtender {
  /** The request timeout of an extender whose {@code httpTimeout} is unset or zero. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  private final String extenderUrl;
  private final String filterVerb;
  private final String prioritizeVerb;
  private final String preemptVerb;
  private final String bindVerb;
  private final long weight;
  private final boolean nodeCacheCapable;
  private final boolean ignorable;
  private final Set<String> managedResources;
  private final Duration timeout;
  private final HttpClient client;

  private HttpExtender(ExtenderConfig config, HttpClient client, Duration timeout) {
    this.extenderUrl = Objects.requireNonNullElse(config.urlPrefix(), "");
    this.filterVerb = Objects.requireNonNullElse(config.filterVerb(), "");
    this.prioritizeVerb = Objects.requireNonNullElse(config.prioritizeVerb(), "");
    this.preemptVerb = Objects.requireNonNullElse(config.preemptVerb(), "");
    this.bindVerb = Objects.requireNonNullElse(config.bindVerb(), "");
    this.weight = config.weight();
    this.nodeCacheCapable = config.nodeCacheCapable();
    this.ignorable = config.ignorable();
    Set<String> managed = new HashSet<>();
    config.managedResources().forEach(r -> managed.add(r.name()));
    this.managedResources = Set.copyOf(managed);
    this.timeout = timeout;
    this.client = client;
  }

  /**
   * Creates the extender of {@code config} (kube's {@code NewHTTPExtender}): its own HTTP client
   * with the configured timeout and TLS settings (see {@link ExtenderTls}).
   *
   * @throws IllegalArgumentException when the TLS files or data cannot be read
   */
  public static HttpExtender create(ExtenderConfig config) {
    Objects.requireNonNull(config, "config must not be null");
    Duration timeout =
        config.httpTimeout() == null || config.httpTimeout().isZero()
            ? DEFAULT_TIMEOUT
            : config.httpTimeout();
    HttpClient.Builder b =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NORMAL);
    ExtenderTls.configure(b, config);
    return new HttpExtender(config, b.build(), timeout);
  }

  /** Returns the URL prefix, which names the extender in logs and score reports. */
  @Override
  public String name() {
    return extenderUrl;
  }

  @Override
  public boolean isFilter() {
    return !filterVerb.isEmpty();
  }

  @Override
  public boolean isPrioritizer() {
    return !prioritizeVerb.isEmpty();
  }

  @Override
  public boolean isBinder() {
    return !bindVerb.isEmpty();
  }

  @Override
  public boolean supportsPreemption() {
    return !preemptVerb.isEmpty();
  }

  @Override
  public boolean isIgnorable() {
    return ignorable;
  }

  @Override
  public long weight() {
    return weight;
  }

  /** Returns the request timeout. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * Returns whether the extender manages no resources, or a container or init container of {@code
   * pod} requests or limits one of them.
   */
  @Override
  public boolean isInterested(PodInfo pod) {
    if (managedResources.isEmpty()) {
      return true;
    }
    V1Pod p = pod.pod();
    if (p.getSpec() == null) {
      return false;
    }
    return hasManagedResources(p.getSpec().getContainers())
        || hasManagedResources(p.getSpec().getInitContainers());
  }

  private boolean hasManagedResources(List<V1Container> containers) {
    if (containers == null) {
      return false;
    }
    for (V1Container c : containers) {
      if (c.getResources() == null) {
        continue;
      }
      if (containsManaged(c.getResources().getRequests())
          || containsManaged(c.getResources().getLimits())) {
        return true;
      }
    }
    return false;
  }

  private boolean containsManaged(Map<String, ?> resources) {
    if (resources == null) {
      return false;
    }
    for (String name : resources.keySet()) {
      if (managedResources.contains(name)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sends the pod and the nodes (names only when node-cache-capable) to the filter verb. Without a
   * filter verb every node passes. The returned names must be among {@code nodes}; returned node
   * objects become new node infos without pods, as in kube.
   *
   * @throws SchedulingException on a transport failure, a non-200 answer, an {@code Error} in the
   *     result or an unknown node name
   */
  @Override
  public FilterResult filter(PodInfo pod, List<NodeInfo> nodes) {
    if (filterVerb.isEmpty()) {
      return new FilterResult(nodes, Map.of(), Map.of());
    }
    Map<String, NodeInfo> byName = new HashMap<>();
    for (NodeInfo n : nodes) {
      byName.put(n.name(), n);
    }
    String body = send(filterVerb, ExtenderWire.encode(args(pod, nodes)));
    ExtenderWire.FilterResult r = decode(filterVerb, () -> ExtenderWire.decodeFilterResult(body));
    if (!r.error().isEmpty()) {
      throw new SchedulingException(r.error());
    }
    List<NodeInfo> feasible = new ArrayList<>();
    if (nodeCacheCapable && r.nodeNames() != null) {
      for (String name : r.nodeNames()) {
        NodeInfo n = byName.get(name);
        if (n == null) {
          throw new SchedulingException(
              "extender \""
                  + extenderUrl
                  + "\" claims a filtered node \""
                  + name
                  + "\" which is not found in the input node list");
        }
        feasible.add(n);
      }
    } else if (r.nodes() != null) {
      for (V1Node n : r.nodes()) {
        feasible.add(NodeInfo.of(n));
      }
    }
    return new FilterResult(feasible, r.failedNodes(), r.failedAndUnresolvableNodes());
  }

  /**
   * Sends the pod and the nodes to the prioritize verb and returns each listed node's score (a node
   * listed twice gets the sum). Without a prioritize verb every node scores 0.
   *
   * @throws SchedulingException on a transport failure, a non-200 answer or a malformed result
   */
  @Override
  public Map<String, Long> prioritize(PodInfo pod, List<NodeInfo> nodes) {
    Map<String, Long> out = new LinkedHashMap<>();
    if (prioritizeVerb.isEmpty()) {
      nodes.forEach(n -> out.put(n.name(), 0L));
      return out;
    }
    String body = send(prioritizeVerb, ExtenderWire.encode(args(pod, nodes)));
    for (ExtenderWire.HostPriority p :
        decode(prioritizeVerb, () -> ExtenderWire.decodePriorities(body))) {
      out.merge(p.host(), p.score(), Long::sum);
    }
    return out;
  }

  /**
   * Asks the bind verb to bind {@code pod} to {@code node}.
   *
   * @throws SchedulingException on a transport failure, a non-200 answer or an {@code Error}
   */
  @Override
  public void bind(PodInfo pod, String node) {
    if (bindVerb.isEmpty()) {
      throw new SchedulingException("unexpected empty bindVerb in extender");
    }
    V1Pod p = pod.pod();
    String uid = p.getMetadata() == null ? "" : p.getMetadata().getUid();
    String body =
        send(
            bindVerb,
            ExtenderWire.encode(
                new ExtenderWire.BindingArgs(pod.name(), pod.namespace(), uid, node)));
    String error = decode(bindVerb, () -> ExtenderWire.decodeBindingResult(body));
    if (!error.isEmpty()) {
      throw new SchedulingException(error);
    }
  }

  /**
   * Sends the candidates to the preempt verb (victim UIDs only when node-cache-capable) and
   * resolves the answer's victim UIDs against the pods of each node in {@code nodeInfos}.
   *
   * @throws SchedulingException on a transport failure, a non-200 answer, an unknown node or a
   *     victim UID not found on its node
   */
  @Override
  public Map<String, Victims> processPreemption(
      PodInfo pod, Map<String, Victims> nodeNameToVictims, NodeInfoLister nodeInfos) {
    if (preemptVerb.isEmpty()) {
      throw new SchedulingException(
          "preempt verb is not defined for extender "
              + extenderUrl
              + " but run into ProcessPreemption");
    }
    ExtenderWire.PreemptionArgs args;
    if (nodeCacheCapable) {
      Map<String, ExtenderWire.MetaVictims> meta = new LinkedHashMap<>();
      nodeNameToVictims.forEach(
          (node, v) -> {
            List<String> uids = new ArrayList<>();
            v.pods().forEach(p -> uids.add(p.uid()));
            meta.put(node, new ExtenderWire.MetaVictims(uids, v.numPdbViolations()));
          });
      args = new ExtenderWire.PreemptionArgs(pod.pod(), null, meta);
    } else {
      Map<String, ExtenderWire.Victims> full = new LinkedHashMap<>();
      nodeNameToVictims.forEach(
          (node, v) -> {
            List<V1Pod> pods = new ArrayList<>();
            v.pods().forEach(p -> pods.add(p.pod()));
            full.put(node, new ExtenderWire.Victims(pods, v.numPdbViolations()));
          });
      args = new ExtenderWire.PreemptionArgs(pod.pod(), full, null);
    }
    String body = send(preemptVerb, ExtenderWire.encode(args));
    Map<String, ExtenderWire.MetaVictims> result =
        decode(preemptVerb, () -> ExtenderWire.decodePreemptionResult(body));
    Map<String, Victims> out = new LinkedHashMap<>();
    if (result == null) {
      return out;
    }
    for (Map.Entry<String, ExtenderWire.MetaVictims> e : result.entrySet()) {
      NodeInfo node = nodeInfos.get(e.getKey());
      ExtenderWire.MetaVictims meta = e.getValue();
      if (meta == null) {
        // kube dereferences the entry; a null entry is an empty victim list, rejected later
        out.put(e.getKey(), new Victims(List.of(), 0));
        continue;
      }
      List<PodInfo> victims = new ArrayList<>();
      for (String uid : meta.podUids()) {
        victims.add(podOnNode(uid, node));
      }
      out.put(e.getKey(), new Victims(victims, meta.numPdbViolations()));
    }
    return out;
  }

  private PodInfo podOnNode(String uid, NodeInfo node) {
    for (PodInfo p : node.pods()) {
      if (uid.equals(p.uid())) {
        return p;
      }
    }
    throw new SchedulingException(
        "extender: "
            + extenderUrl
            + " claims to preempt pod (UID: &{"
            + uid
            + "}) on node: "
            + node.name()
            + ", but the pod is not found on that node");
  }

  private ExtenderWire.ExtenderArgs args(PodInfo pod, List<NodeInfo> nodes) {
    List<String> names = null;
    List<V1Node> list = null;
    if (nodeCacheCapable) {
      names = new ArrayList<>(nodes.size());
      for (NodeInfo n : nodes) {
        names.add(n.name());
      }
    } else {
      list = new ArrayList<>(nodes.size());
      for (NodeInfo n : nodes) {
        list.add(n.node());
      }
    }
    return new ExtenderWire.ExtenderArgs(pod.pod(), list, names);
  }

  private interface Decoder<T> {
    T decode();
  }

  private <T> T decode(String verb, Decoder<T> d) {
    try {
      return d.decode();
    } catch (IllegalArgumentException e) {
      throw new SchedulingException(
          "decoding the " + verb + " answer of extender " + extenderUrl + ": " + e.getMessage(), e);
    }
  }

  /**
   * Posts {@code json} to {@code <urlPrefix>/<verb>} and returns the body of a 200 answer; the
   * timeout covers the whole exchange, as Go's {@code http.Client.Timeout} does.
   */
  private String send(String verb, String json) {
    String url = trimTrailingSlashes(extenderUrl) + "/" + verb;
    HttpRequest request;
    try {
      request =
          HttpRequest.newBuilder(URI.create(url))
              .timeout(timeout)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8))
              .build();
    } catch (IllegalArgumentException e) {
      throw new SchedulingException("parse \"" + url + "\": " + e.getMessage(), e);
    }
    CompletableFuture<HttpResponse<String>> future =
        client.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    HttpResponse<String> response;
    try {
      response = future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw timedOut(url, e);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new SchedulingException("Post \"" + url + "\": interrupted", e);
    } catch (CancellationException e) {
      throw new SchedulingException("Post \"" + url + "\": cancelled", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw timedOut(url, cause);
      }
      throw new SchedulingException(
          "Post \"" + url + "\": " + transportError(request.uri(), cause), cause);
    }
    if (response.statusCode() != 200) {
      throw new SchedulingException(
          "failed " + verb + " with extender at URL " + url + ", code " + response.statusCode());
    }
    return response.body();
  }

  /**
   * The transport error as Go's net/http prints it after {@code Post "<url>": }: a refused
   * connection is {@code dial tcp <host>:<port>: connect: connection refused}, an unknown host
   * {@code dial tcp: lookup <host>: no such host}; anything else keeps the JDK's message.
   */
  static String transportError(URI uri, Throwable cause) {
    int port =
        uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
    String host = uri.getHost() == null ? "" : uri.getHost();
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        String hostPort = host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
        return "dial tcp " + hostPort + ":" + port + ": connect: connection refused";
      }
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return "dial tcp: lookup " + host + ": no such host";
      }
    }
    String msg = cause.getMessage();
    return msg == null || msg.isEmpty() ? cause.getClass().getSimpleName() : msg;
  }

  private static SchedulingException timedOut(String url, Throwable cause) {
    return new SchedulingException(
        "Post \""
            + url
            + "\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)",
        cause);
  }

  private static String trimTrailingSlashes(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == '/') {
      end--;
    }
    return s.substring(0, end);
  }

  @Override
  public String toString() {
    return "HttpExtender{" + extenderUrl + "}";
  }
}
