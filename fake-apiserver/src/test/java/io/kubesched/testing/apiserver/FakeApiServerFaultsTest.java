package io.kubesched.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The fault hooks and the bindings collection of {@link FakeApiServer}, over plain HTTP. */
class FakeApiServerFaultsTest {
  private static final String POD =
      "{\"metadata\":{\"name\":\"%s\"},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}";
  private static final String NODE = "{\"metadata\":{\"name\":\"n1\"}}";

  private final FakeApiServer server = FakeApiServer.start();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @AfterEach
  void close() {
    server.close();
  }

  private HttpResponse<String> send(String method, String path, String body)
      throws IOException, InterruptedException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json");
    b.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> createPod(String name) throws Exception {
    return send("POST", "/api/v1/namespaces/default/pods", POD.formatted(name));
  }

  static Stream<Arguments> codes() {
    return Stream.of(
        Arguments.of(409, "Conflict"),
        Arguments.of(410, "Expired"),
        Arguments.of(429, "TooManyRequests"),
        Arguments.of(500, "InternalError"),
        Arguments.of(503, "ServiceUnavailable"));
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("codes")
  void failNextAnswersTheCodeThenServesAgain(int code, String reason) throws Exception {
    server.faults().failNext("create", "pods", 2, code);

    HttpResponse<String> first = createPod("a");
    HttpResponse<String> second = createPod("a");
    HttpResponse<String> third = createPod("a");

    assertThat(List.of(first.statusCode(), second.statusCode(), third.statusCode()))
        .containsExactly(code, code, 201);
    assertThat(first.body()).contains("\"reason\":\"" + reason + "\"");
    assertThat(first.headers().firstValue("Retry-After"))
        .isEqualTo(code == 429 ? java.util.Optional.of("1") : java.util.Optional.empty());
    assertThat(server.faults().injected()).isEqualTo(2);
    assertThat(server.faults().exhausted()).isTrue();
  }

  @Test
  void failNextMatchesOnlyItsVerbAndResource() throws Exception {
    server.faults().failNext("create", "nodes", 1, 500);

    assertThat(createPod("a").statusCode()).isEqualTo(201);
    assertThat(send("GET", "/api/v1/nodes", null).statusCode()).isEqualTo(200);
    assertThat(send("POST", "/api/v1/nodes", NODE).statusCode()).isEqualTo(500);
    assertThat(send("POST", "/api/v1/nodes", NODE).statusCode()).isEqualTo(201);
  }

  @Test
  void aLostResponseStillAppliesTheWrite() throws Exception {
    server.faults().loseNextResponses("create", "pods", 1);

    assertThatThrownBy(() -> createPod("a")).isInstanceOf(IOException.class);

    assertThat(send("GET", "/api/v1/namespaces/default/pods/a", null).statusCode()).isEqualTo(200);
    assertThat(createPod("a").statusCode()).isEqualTo(409);
  }

  @Test
  void unavailableAnswers503UntilThePeriodEnds() throws Exception {
    server.faults().unavailableFor(Duration.ofHours(1));
    assertThat(send("GET", "/api/v1/nodes", null).statusCode()).isEqualTo(503);

    server.faults().clear();
    assertThat(send("GET", "/api/v1/nodes", null).statusCode()).isEqualTo(200);
  }

  @Test
  void latencyDelaysButServes() throws Exception {
    server.faults().latency(Duration.ofMillis(20));
    assertThat(createPod("a").statusCode()).isEqualTo(201);
  }

  @Test
  void theBindingsCollectionBindsLikeTheSubresource() throws Exception {
    send("POST", "/api/v1/nodes", NODE);
    createPod("a");
    String binding =
        "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"a\"},"
            + "\"target\":{\"kind\":\"Node\",\"name\":\"n1\"}}";

    HttpResponse<String> first = send("POST", "/api/v1/namespaces/default/bindings", binding);
    HttpResponse<String> again = send("POST", "/api/v1/namespaces/default/bindings", binding);

    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(first.body()).contains("\"status\":\"Success\"");
    assertThat(send("GET", "/api/v1/namespaces/default/pods/a", null).body())
        .contains("\"nodeName\":\"n1\"");
    assertThat(again.statusCode()).isEqualTo(409);
    assertThat(again.body()).contains("is already assigned to node \\\"n1\\\"");
  }

  @Test
  void cutWatchesEndsOpenStreams() throws Exception {
    HttpRequest watch =
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/pods?watch=true")).build();
    HttpResponse<InputStream> stream = http.send(watch, HttpResponse.BodyHandlers.ofInputStream());
    createPod("a");

    server.cutWatches();

    try (InputStream in = stream.body()) {
      String all = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      assertThat(all).contains("\"type\":\"ADDED\"");
    }
  }
}
