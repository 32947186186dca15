package io.kubesched.core.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import com.google.gson.JsonParser;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubesched.core.cache.Snapshot;
import io.kubesched.core.config.ExtenderConfig;
import io.kubesched.core.runtime.SchedulerExtender;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.SchedulingException;
import io.kubesched.testing.apiserver.FakeExtenderServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link HttpExtender} against a webhook on the loopback interface: wire format and errors. */
final class HttpExtenderTest {
  private static final String POD_JSON =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"uid-p\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\"}]}}";

  private final FakeExtenderServer server;

  HttpExtenderTest() throws Exception {
    server = new FakeExtenderServer();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  // ---------------------------------------------------------------- fixtures

  private static V1Pod podObj(
      String name, Map<String, String> requests, Map<String, String> limits) {
    V1ResourceRequirements r = new V1ResourceRequirements();
    requests.forEach((k, v) -> r.putRequestsItem(k, Quantity.fromString(v)));
    limits.forEach((k, v) -> r.putLimitsItem(k, Quantity.fromString(v)));
    V1Container c = new V1Container().name("c");
    if (!requests.isEmpty() || !limits.isEmpty()) {
      c.resources(r);
    }
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).namespace("default").uid("uid-" + name))
        .spec(new V1PodSpec().containers(new ArrayList<>(List.of(c))));
  }

  private static PodInfo pod() {
    return PodInfo.of(podObj("p", Map.of(), Map.of()));
  }

  private static V1Node nodeObj(String name) {
    return new V1Node().metadata(new V1ObjectMeta().name(name)).spec(new V1NodeSpec());
  }

  private static List<NodeInfo> nodes(String... names) {
    List<NodeInfo> out = new ArrayList<>();
    for (String n : names) {
      out.add(NodeInfo.of(nodeObj(n), PodInfo.of(podObj("running-on-" + n, Map.of(), Map.of()))));
    }
    return out;
  }

  private ExtenderConfig config(boolean nodeCacheCapable, boolean ignorable, Duration timeout) {
    return new ExtenderConfig(
        server.url() + "/",
        "filter",
        "preempt",
        "prioritize",
        "bind",
        2,
        false,
        timeout,
        nodeCacheCapable,
        List.of(),
        ignorable);
  }

  private HttpExtender extender(boolean nodeCacheCapable) {
    return HttpExtender.create(config(nodeCacheCapable, false, null));
  }

  private static Object json(String s) {
    return JsonParser.parseString(s);
  }

  private static List<String> names(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::name).toList();
  }

  // ---------------------------------------------------------------- filter

  @Test
  void filterSendsThePodAndTheNodeListWithPascalCaseKeys() {
    server.answer(
        "/filter",
        "{\"Nodes\":{\"metadata\":{},\"items\":[{\"metadata\":{\"name\":\"n2\"}}]},"
            + "\"NodeNames\":null,\"FailedNodes\":{\"n1\":\"no gpu\"},"
            + "\"FailedAndUnresolvableNodes\":null,\"Error\":\"\"}");
    List<NodeInfo> input = nodes("n1", "n2");

    SchedulerExtender.FilterResult r = extender(false).filter(pod(), input);

    FakeExtenderServer.Request req = server.requests().get(0);
    assertThat(req.method()).isEqualTo("POST");
    assertThat(req.path()).isEqualTo("/filter");
    assertThat(req.contentType()).isEqualTo("application/json");
    assertThat(json(req.body()))
        .isEqualTo(
            json(
                "{\"Pod\":"
                    + POD_JSON
                    + ",\"Nodes\":{\"metadata\":{},\"items\":["
                    + "{\"metadata\":{\"name\":\"n1\"},\"spec\":{}},"
                    + "{\"metadata\":{\"name\":\"n2\"},\"spec\":{}}]},\"NodeNames\":null}"));
    assertThat(names(r.feasible())).containsExactly("n2");
    // node objects returned by the extender become node infos without pods, as in kube
    assertThat(r.feasible().get(0).pods()).isEmpty();
    assertThat(r.failed()).isEqualTo(Map.of("n1", "no gpu"));
    assertThat(r.failedAndUnresolvable()).isEmpty();
  }

  @Test
  void filterWithANodeCacheSendsNamesAndKeepsTheSchedulersNodeInfos() {
    server.answer(
        "/filter", "{\"NodeNames\":[\"n2\"],\"FailedAndUnresolvableNodes\":{\"n1\":\"never\"}}");
    List<NodeInfo> input = nodes("n1", "n2");

    SchedulerExtender.FilterResult r = extender(true).filter(pod(), input);

    assertThat(json(server.requests().get(0).body()))
        .isEqualTo(json("{\"Pod\":" + POD_JSON + ",\"Nodes\":null,\"NodeNames\":[\"n1\",\"n2\"]}"));
    assertThat(r.feasible()).containsExactly(input.get(1));
    assertThat(r.failedAndUnresolvable()).isEqualTo(Map.of("n1", "never"));
  }

  static Stream<Arguments> filterAnswers() {
    return Stream.of(
        argumentSet(
            "keys are matched case-insensitively, as Go does",
            true,
            "{\"nodenames\":[\"n1\"],\"FAILEDNODES\":{\"n2\":\"busy\"},\"error\":\"\"}",
            List.of("n1"),
            Map.of("n2", "busy"),
            Map.of()),
        argumentSet(
            "a node in both maps is reported in both (the runtime prefers the unresolvable one)",
            true,
            "{\"NodeNames\":[],\"FailedNodes\":{\"n1\":\"soft\",\"n2\":\"busy\"},"
                + "\"FailedAndUnresolvableNodes\":{\"n1\":\"hard\"}}",
            List.of(),
            Map.of("n1", "soft", "n2", "busy"),
            Map.of("n1", "hard")),
        argumentSet(
            "a cache-capable extender may still answer with node objects",
            true,
            "{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n1\"}}]}}",
            List.of("n1"),
            Map.of(),
            Map.of()),
        argumentSet(
            "names are ignored when the extender has no node cache",
            false,
            "{\"NodeNames\":[\"n1\"]}",
            List.of(),
            Map.of(),
            Map.of()),
        argumentSet(
            "an answer without nodes rejects every node",
            false,
            "{}",
            List.of(),
            Map.of(),
            Map.of()),
        argumentSet(
            "unknown keys are ignored",
            false,
            "{\"Nodes\":{\"items\":[{\"metadata\":{\"name\":\"n2\"}}]},\"Extra\":[1,2]}",
            List.of("n2"),
            Map.of(),
            Map.of()));
  }

  @ParameterizedTest
  @MethodSource("filterAnswers")
  void filterDecodesTheAnswer(
      boolean nodeCacheCapable,
      String answer,
      List<String> feasible,
      Map<String, String> failed,
      Map<String, String> unresolvable) {
    server.answer("/filter", answer);

    SchedulerExtender.FilterResult r = extender(nodeCacheCapable).filter(pod(), nodes("n1", "n2"));

    assertThat(names(r.feasible())).isEqualTo(feasible);
    assertThat(r.failed()).isEqualTo(failed);
    assertThat(r.failedAndUnresolvable()).isEqualTo(unresolvable);
  }

  static Stream<Arguments> filterErrors() {
    return Stream.of(
        argumentSet(
            "the Error field becomes the error message",
            200,
            "{\"Error\":\"extender is sad\"}",
            "extender is sad"),
        argumentSet(
            "a non-200 status is an error naming the verb, URL and code",
            500,
            "boom",
            "failed filter with extender at URL %s/filter, code 500"),
        argumentSet(
            "a node name not sent to the extender is an error",
            200,
            "{\"NodeNames\":[\"n9\"]}",
            "extender \"%s/\" claims a filtered node \"n9\" which is not found in the input node"
                + " list"),
        argumentSet(
            "a malformed answer is an error",
            200,
            "{\"FailedNodes\":[\"n1\"]}",
            "decoding the filter answer of extender %s/: cannot unmarshal array into Go value"
                + " of type FailedNodes"));
  }

  @ParameterizedTest
  @MethodSource("filterErrors")
  void filterFailures(int status, String body, String message) {
    server.on("/filter", b -> new FakeExtenderServer.Answer(status, body));

    assertThatThrownBy(() -> extender(true).filter(pod(), nodes("n1", "n2")))
        .isInstanceOf(SchedulingException.class)
        .hasMessage(message.replace("%s", server.url()));
  }

  @Test
  void filterWithoutAVerbPassesEveryNodeWithoutACall() {
    HttpExtender e =
        HttpExtender.create(
            new ExtenderConfig(
                server.url(), "", "", "", "", 1, false, null, false, List.of(), false));
    List<NodeInfo> input = nodes("n1", "n2");

    SchedulerExtender.FilterResult r = e.filter(pod(), input);

    assertThat(r).isEqualTo(new SchedulerExtender.FilterResult(input, Map.of(), Map.of()));
    assertThat(e.prioritize(pod(), input)).isEqualTo(Map.of("n1", 0L, "n2", 0L));
    assertThat(server.requests()).isEmpty();
    assertThat(e.timeout()).isEqualTo(HttpExtender.DEFAULT_TIMEOUT);
    assertThat(List.of(e.isFilter(), e.isPrioritizer(), e.isBinder(), e.supportsPreemption()))
        .containsOnly(false);
  }

  @Test
  void aSlowExtenderTimesOut() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    server.on(
        "/filter",
        b -> {
          release.await(30, TimeUnit.SECONDS);
          return FakeExtenderServer.Answer.ok("{}");
        });
    HttpExtender e = HttpExtender.create(config(true, false, Duration.ofMillis(200)));
    try {
      assertThatThrownBy(() -> e.filter(pod(), nodes("n1")))
          .isInstanceOf(SchedulingException.class)
          .hasMessage(
              "Post \""
                  + server.url()
                  + "/filter\": context deadline exceeded (Client.Timeout exceeded while"
                  + " awaiting headers)");
    } finally {
      release.countDown();
    }
  }

  @Test
  void anUnreachableExtenderIsAnError() {
    String url = server.url();
    server.close();
    HttpExtender e =
        HttpExtender.create(
            new ExtenderConfig(
                url,
                "filter",
                "",
                "",
                "",
                1,
                false,
                Duration.ofSeconds(2),
                false,
                List.of(),
                true));

    assertThatThrownBy(() -> e.filter(pod(), nodes("n1")))
        .isInstanceOf(SchedulingException.class)
        .hasMessage(
            "Post \""
                + url
                + "/filter\": dial tcp "
                + url.replaceFirst("^http://", "").replaceFirst("/.*$", "")
                + ": connect: connection refused");
    assertThat(e.isIgnorable()).isTrue();
  }

  static Stream<Arguments> transportErrors() {
    return Stream.of(
        argumentSet(
            "refused, explicit port",
            "http://127.0.0.1:9/scheduler",
            new java.net.ConnectException(),
            "dial tcp 127.0.0.1:9: connect: connection refused"),
        argumentSet(
            "refused, default https port, wrapped",
            "https://localhost/x",
            new java.io.IOException(new java.net.ConnectException("Connection refused")),
            "dial tcp localhost:443: connect: connection refused"),
        argumentSet(
            "refused, IPv6 literal",
            "http://[::1]:8888/x",
            new java.net.ConnectException(),
            "dial tcp [::1]:8888: connect: connection refused"),
        argumentSet(
            "unknown host",
            "http://no-such-host.invalid:80/x",
            new java.io.IOException(new java.nio.channels.UnresolvedAddressException()),
            "dial tcp: lookup no-such-host.invalid: no such host"),
        argumentSet(
            "anything else keeps the JDK's message",
            "http://h:1/x",
            new java.io.IOException("HTTP/1.1 header parser received no bytes"),
            "HTTP/1.1 header parser received no bytes"));
  }

  @ParameterizedTest
  @MethodSource("transportErrors")
  void transportErrorsReadAsGosNetHttp(String url, Throwable cause, String expected) {
    assertThat(HttpExtender.transportError(java.net.URI.create(url), cause)).isEqualTo(expected);
  }

  // ---------------------------------------------------------------- prioritize

  @Test
  void prioritizeSendsTheArgsAndDecodesTheHostPriorityList() {
    server.answer(
        "/prioritize",
        "[{\"Host\":\"n1\",\"Score\":3},{\"host\":\"n2\",\"score\":7},{\"Host\":\"n2\",\"Score\":1}]");

    Map<String, Long> scores = extender(true).prioritize(pod(), nodes("n1", "n2"));

    assertThat(json(server.requests().get(0).body()))
        .isEqualTo(json("{\"Pod\":" + POD_JSON + ",\"Nodes\":null,\"NodeNames\":[\"n1\",\"n2\"]}"));
    assertThat(scores).isEqualTo(Map.of("n1", 3L, "n2", 8L));
    assertThat(extender(true).weight()).isEqualTo(2);
  }

  @Test
  void prioritizeRejectsAFractionalScore() {
    server.answer("/prioritize", "[{\"Host\":\"n1\",\"Score\":1.5}]");

    assertThatThrownBy(() -> extender(false).prioritize(pod(), nodes("n1")))
        .isInstanceOf(SchedulingException.class)
        .hasMessageContaining(
            "cannot unmarshal number 1.5 into Go struct field HostPriority.Score of type int64");
  }

  // ---------------------------------------------------------------- bind

  @Test
  void bindSendsTheBindingArgs() {
    server.answer("/bind", "{\"Error\":\"\"}");

    extender(false).bind(pod(), "n1");

    assertThat(server.requests().get(0).body())
        .isEqualTo(
            "{\"PodName\":\"p\",\"PodNamespace\":\"default\",\"PodUID\":\"uid-p\",\"Node\":\"n1\"}");
  }

  @Test
  void bindReportsTheExtendersError() {
    server.answer("/bind", "{\"error\":\"node is full\"}");

    assertThatThrownBy(() -> extender(false).bind(pod(), "n1"))
        .isInstanceOf(SchedulingException.class)
        .hasMessage("node is full");
  }

  // ---------------------------------------------------------------- preemption

  private static Map<String, SchedulerExtender.Victims> victims(Snapshot snapshot) {
    Map<String, SchedulerExtender.Victims> m = new LinkedHashMap<>();
    m.put("n1", new SchedulerExtender.Victims(snapshot.get("n1").pods(), 1));
    m.put("n2", new SchedulerExtender.Victims(snapshot.get("n2").pods(), 0));
    return m;
  }

  private static Snapshot snapshot() {
    return Snapshot.of(
        List.of(nodeObj("n1"), nodeObj("n2")),
        List.of(
            podObj("v1", Map.of(), Map.of()).spec(new V1PodSpec().nodeName("n1")),
            podObj("v2", Map.of(), Map.of()).spec(new V1PodSpec().nodeName("n2")),
            podObj("v3", Map.of(), Map.of()).spec(new V1PodSpec().nodeName("n2"))));
  }

  @Test
  void preemptionWithANodeCacheSendsVictimUidsAndResolvesTheAnswer() {
    server.answer(
        "/preempt",
        "{\"NodeNameToMetaVictims\":{\"n2\":{\"Pods\":[{\"UID\":\"uid-v3\"}],"
            + "\"NumPDBViolations\":2}}}");
    Snapshot snapshot = snapshot();

    Map<String, SchedulerExtender.Victims> out =
        extender(true).processPreemption(pod(), victims(snapshot), snapshot);

    assertThat(json(server.requests().get(0).body()))
        .isEqualTo(
            json(
                "{\"Pod\":"
                    + POD_JSON
                    + ",\"NodeNameToVictims\":null,\"NodeNameToMetaVictims\":{"
                    + "\"n1\":{\"Pods\":[{\"UID\":\"uid-v1\"}],\"NumPDBViolations\":1},"
                    + "\"n2\":{\"Pods\":[{\"UID\":\"uid-v2\"},{\"UID\":\"uid-v3\"}],"
                    + "\"NumPDBViolations\":0}}}"));
    PodInfo v3 = snapshot.get("n2").pods().get(1);
    assertThat(out).isEqualTo(Map.of("n2", new SchedulerExtender.Victims(List.of(v3), 2)));
  }

  @Test
  void preemptionWithoutANodeCacheSendsWholeVictimPods() {
    server.answer("/preempt", "{\"NodeNameToMetaVictims\":{}}");
    Snapshot snapshot = snapshot();

    Map<String, SchedulerExtender.Victims> out =
        extender(false).processPreemption(pod(), victims(snapshot), snapshot);

    var body = JsonParser.parseString(server.requests().get(0).body()).getAsJsonObject();
    assertThat(body.get("NodeNameToMetaVictims").isJsonNull()).isTrue();
    var n2 = body.getAsJsonObject("NodeNameToVictims").getAsJsonObject("n2");
    assertThat(n2.get("NumPDBViolations").getAsLong()).isZero();
    assertThat(n2.getAsJsonArray("Pods"))
        .extracting(p -> p.getAsJsonObject().getAsJsonObject("metadata").get("uid").getAsString())
        .containsExactly("uid-v2", "uid-v3");
    assertThat(out).isEmpty();
  }

  static Stream<Arguments> preemptionErrors() {
    return Stream.of(
        argumentSet(
            "a victim that is not on the node",
            "{\"NodeNameToMetaVictims\":{\"n1\":{\"Pods\":[{\"UID\":\"uid-v2\"}]}}}",
            "extender: %s/ claims to preempt pod (UID: &{uid-v2}) on node: n1, but the pod is"
                + " not found on that node"),
        argumentSet(
            "an unknown node",
            "{\"NodeNameToMetaVictims\":{\"n9\":{\"Pods\":[]}}}",
            "nodeinfo not found for node name \"n9\""));
  }

  @ParameterizedTest
  @MethodSource("preemptionErrors")
  void preemptionFailures(String answer, String message) {
    server.answer("/preempt", answer);
    Snapshot snapshot = snapshot();

    assertThatThrownBy(() -> extender(true).processPreemption(pod(), victims(snapshot), snapshot))
        .isInstanceOf(SchedulingException.class)
        .hasMessage(message.replace("%s", server.url()));
  }

  // ---------------------------------------------------------------- interest

  static Stream<Arguments> interest() {
    Map<String, String> none = Map.of();
    return Stream.of(
        argumentSet("no managed resources: every pod", List.of(), none, none, false, true),
        argumentSet("managed memory, no resources", List.of("memory"), none, none, false, false),
        argumentSet(
            "managed memory, requested",
            List.of("memory"),
            Map.of("memory", "0"),
            none,
            false,
            true),
        argumentSet(
            "managed memory, limited", List.of("memory"), none, Map.of("memory", "0"), false, true),
        argumentSet(
            "managed memory, requested by an init container",
            List.of("memory"),
            Map.of("memory", "0"),
            none,
            true,
            true),
        argumentSet(
            "managed gpu, pod requests cpu only",
            List.of("example.com/gpu"),
            Map.of("cpu", "1"),
            none,
            false,
            false));
  }

  @ParameterizedTest
  @MethodSource("interest")
  void isInterestedByManagedResources(
      List<String> managed,
      Map<String, String> requests,
      Map<String, String> limits,
      boolean initContainer,
      boolean want) {
    List<ExtenderConfig.ManagedResource> resources = new ArrayList<>();
    managed.forEach(m -> resources.add(new ExtenderConfig.ManagedResource(m, false)));
    HttpExtender e =
        HttpExtender.create(
            new ExtenderConfig(
                server.url(), "filter", "", "", "", 1, false, null, false, resources, false));
    V1Pod p = podObj("p", requests, limits);
    if (initContainer) {
      V1Container c = p.getSpec().getContainers().get(0);
      p.getSpec().containers(new ArrayList<>(List.of(new V1Container().name("app"))));
      p.getSpec().initContainers(new ArrayList<>(List.of(c)));
    }

    assertThat(e.isInterested(PodInfo.of(p))).isEqualTo(want);
  }
}
