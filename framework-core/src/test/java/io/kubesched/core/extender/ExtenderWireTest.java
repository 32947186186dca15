package io.kubesched.core.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ExtenderWire}: what kube-scheduler sends, and each message's round trip. */
final class ExtenderWireTest {
  /** ExtenderArgs as Go's encoding/json writes them for a non-cache-capable extender. */
  private static final String FROM_KUBE_SCHEDULER =
      """
      {"Pod":{"metadata":{"name":"web-1","namespace":"prod","uid":"1f4c",
        "creationTimestamp":"2025-03-01T10:00:00Z","labels":{"app":"web"}},
        "spec":{"containers":[{"name":"c","image":"nginx",
          "resources":{"requests":{"cpu":"500m","memory":"1Gi"}}}],
          "restartPolicy":"Always","schedulerName":"default-scheduler",
          "futureField":{"x":1}},
        "status":{"phase":"Pending","qosClass":"Burstable"}},
       "Nodes":{"metadata":{},"items":[
        {"metadata":{"name":"n1","creationTimestamp":null,"labels":{"zone":"a"}},
         "spec":{},
         "status":{"capacity":{"cpu":"4","pods":"110"},"allocatable":{"cpu":"3900m"},
           "daemonEndpoints":{"kubeletEndpoint":{"Port":10250}},
           "nodeInfo":{"machineID":"","systemUUID":"","bootID":"","kernelVersion":"",
             "osImage":"","containerRuntimeVersion":"","kubeletVersion":"",
             "kubeProxyVersion":"","operatingSystem":"linux","architecture":"amd64"}}}]},
       "NodeNames":null}
      """;

  @Test
  void decodesThePodAndNodesKubeSchedulerSends() {
    ExtenderWire.ExtenderArgs args = ExtenderWire.decodeArgs(FROM_KUBE_SCHEDULER);

    V1Pod pod = args.pod();
    assertThat(pod.getMetadata().getName()).isEqualTo("web-1");
    assertThat(pod.getMetadata().getCreationTimestamp())
        .isEqualTo(OffsetDateTime.parse("2025-03-01T10:00:00Z"));
    assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests())
        .isEqualTo(
            Map.of("cpu", Quantity.fromString("500m"), "memory", Quantity.fromString("1Gi")));
    assertThat(args.nodeNames()).isNull();
    assertThat(args.nodes()).hasSize(1);
    V1Node n1 = args.nodes().get(0);
    assertThat(n1.getMetadata().getName()).isEqualTo("n1");
    assertThat(n1.getMetadata().getCreationTimestamp()).isNull();
    assertThat(n1.getStatus().getAllocatable()).isEqualTo(Map.of("cpu", new Quantity("3900m")));
    assertThat(n1.getStatus().getDaemonEndpoints().getKubeletEndpoint().getPort()).isEqualTo(10250);
  }

  private static V1Pod pod(String name) {
    return new V1Pod().metadata(new V1ObjectMeta().name(name).namespace("ns").uid("uid-" + name));
  }

  private static V1Node node(String name) {
    return new V1Node().metadata(new V1ObjectMeta().name(name));
  }

  static Stream<Arguments> roundTrips() {
    Map<String, String> failed = new LinkedHashMap<>();
    failed.put("n2", "busy");
    Map<String, ExtenderWire.MetaVictims> meta = new LinkedHashMap<>();
    meta.put("n1", new ExtenderWire.MetaVictims(List.of("uid-a", "uid-b"), 1));
    return Stream.of(
        argumentSet(
            "ExtenderArgs with node names",
            new ExtenderWire.ExtenderArgs(pod("p"), null, List.of("n1", "n2")),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.ExtenderArgs) o),
            (Function<String, Object>) ExtenderWire::decodeArgs),
        argumentSet(
            "ExtenderArgs with nodes",
            new ExtenderWire.ExtenderArgs(pod("p"), List.of(node("n1")), null),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.ExtenderArgs) o),
            (Function<String, Object>) ExtenderWire::decodeArgs),
        argumentSet(
            "ExtenderFilterResult",
            new ExtenderWire.FilterResult(
                List.of(node("n1")), null, failed, Map.of("n3", "never"), ""),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.FilterResult) o),
            (Function<String, Object>) ExtenderWire::decodeFilterResult),
        argumentSet(
            "ExtenderFilterResult with an error",
            new ExtenderWire.FilterResult(null, null, null, null, "boom"),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.FilterResult) o),
            (Function<String, Object>) ExtenderWire::decodeFilterResult),
        argumentSet(
            "HostPriorityList",
            List.of(new ExtenderWire.HostPriority("n1", 3), new ExtenderWire.HostPriority("n2", 0)),
            (Function<Object, String>) o -> ExtenderWire.encodePriorities(castList(o)),
            (Function<String, Object>) ExtenderWire::decodePriorities),
        argumentSet(
            "ExtenderBindingArgs",
            new ExtenderWire.BindingArgs("p", "ns", "uid-p", "n1"),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.BindingArgs) o),
            (Function<String, Object>) ExtenderWire::decodeBindingArgs),
        argumentSet(
            "ExtenderPreemptionArgs with meta victims",
            new ExtenderWire.PreemptionArgs(pod("p"), null, meta),
            (Function<Object, String>) o -> ExtenderWire.encode((ExtenderWire.PreemptionArgs) o),
            (Function<String, Object>) ExtenderWire::decodePreemptionArgs),
        argumentSet(
            "ExtenderPreemptionResult",
            meta,
            (Function<Object, String>) o -> ExtenderWire.encodePreemptionResult(castMap(o)),
            (Function<String, Object>) ExtenderWire::decodePreemptionResult));
  }

  @SuppressWarnings("unchecked")
  private static List<ExtenderWire.HostPriority> castList(Object o) {
    return (List<ExtenderWire.HostPriority>) o;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, ExtenderWire.MetaVictims> castMap(Object o) {
    return (Map<String, ExtenderWire.MetaVictims>) o;
  }

  @ParameterizedTest
  @MethodSource("roundTrips")
  void messagesSurviveARoundTrip(
      Object message, Function<Object, String> encode, Function<String, Object> decode) {
    assertThat(decode.apply(encode.apply(message))).isEqualTo(message);
  }

  @Test
  void fullPreemptionVictimsKeepTheirPods() {
    Map<String, ExtenderWire.Victims> full = new LinkedHashMap<>();
    full.put("n1", new ExtenderWire.Victims(List.of(pod("a"), pod("b")), 2));

    ExtenderWire.PreemptionArgs back =
        ExtenderWire.decodePreemptionArgs(
            ExtenderWire.encode(new ExtenderWire.PreemptionArgs(pod("p"), full, null)));

    assertThat(back.nodeNameToMetaVictims()).isNull();
    assertThat(back.nodeNameToVictims().get("n1").numPdbViolations()).isEqualTo(2);
    assertThat(back.nodeNameToVictims().get("n1").pods())
        .extracting(p -> p.getMetadata().getUid())
        .containsExactly("uid-a", "uid-b");
  }

  @Test
  void whatFollowsTheAnswerIsIgnoredAsByGosDecoder() {
    assertThat(ExtenderWire.decodeBindingResult("{\"Error\":\"\"}\n{\"Error\":\"x\"}")).isEmpty();
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        argumentSet("not JSON", "{", "invalid JSON: "),
        argumentSet(
            "a string where a list is expected",
            "{\"NodeNames\":\"n1\"}",
            "cannot unmarshal string into Go struct field NodeNames"),
        argumentSet(
            "a number where a message is expected",
            "{\"FailedNodes\":{\"n1\":3}}",
            "cannot unmarshal number into Go struct field FailedNodes of type string"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void malformedFilterResultsNameTheField(String json, String message) {
    assertThatThrownBy(() -> ExtenderWire.decodeFilterResult(json))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(message);
  }
}
