package io.kubesched.cli.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The abuse cases of {@link BoundedHttpServer}: oversized, slow and malformed clients. */
final class BoundedHttpServerTest {
  /** Short timeouts: the slow-client cases wait for them (a fraction of a second each). */
  private static final HttpLimits LIMITS =
      new HttpLimits(
          1024,
          512,
          Duration.ofMillis(300),
          Duration.ofMillis(300),
          Duration.ofSeconds(5),
          Duration.ofSeconds(5),
          1,
          3);

  private final CountDownLatch entered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final List<String> observed = new CopyOnWriteArrayList<>();

  /** One permit per observation: the server observes an exchange after writing its answer. */
  private final java.util.concurrent.Semaphore observations = new java.util.concurrent.Semaphore(0);

  private final List<BoundedHttpServer> servers = new ArrayList<>();

  @AfterEach
  void stop() {
    servers.forEach(BoundedHttpServer::close);
  }

  /** {@code /echo} answers the body's length; a body "block" waits for {@link #release}. */
  private BoundedHttpServer server(HttpLimits limits) throws Exception {
    BoundedHttpServer.Handler echo =
        r -> {
          String body = new String(r.body(), StandardCharsets.UTF_8);
          switch (body) {
            case "block" -> {
              entered.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            case "bad" -> throw new IllegalArgumentException("Pod: Required value");
            case "bug" -> throw new NullPointerException("a bug");
            default -> {}
          }
          return BoundedHttpServer.Response.text(200, r.body().length + " bytes\n");
        };
    BoundedHttpServer s =
        new BoundedHttpServer(
            Map.of(
                "/echo", new BoundedHttpServer.Route(Set.of("POST"), true, echo),
                "/ping",
                    new BoundedHttpServer.Route(
                        Set.of("GET"), false, r -> BoundedHttpServer.Response.text(200, "pong"))),
            limits,
            null,
            false,
            (path, status, nanos) -> {
              observed.add(path + " " + status);
              observations.release();
            });
    servers.add(s);
    s.start(new InetSocketAddress("127.0.0.1", 0));
    return s;
  }

  private static String exchange(BoundedHttpServer s, String raw) throws Exception {
    try (RawHttp c = new RawHttp(s.address())) {
      return RawHttp.statusAndBody(c.send(raw).readToEnd());
    }
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        argumentSet(
            "a body over the limit is refused from its Content-Length, unread",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 1099511627776\r\n\r\n",
            "413 request body too large: Content-Length 1099511627776 exceeds the limit of 1024"
                + " bytes (--max-request-bytes)\n"),
        argumentSet(
            "a chunked body is refused once it crosses the limit",
            "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "200\r\n"
                + "x".repeat(512)
                + "\r\n400\r\n",
            "413 request body too large: the chunked body exceeds the limit of 1024 bytes"
                + " (--max-request-bytes)\n"),
        argumentSet(
            "headers over the limit",
            "GET /ping HTTP/1.1\r\nX-Big: " + "y".repeat(600) + "\r\n\r\n",
            "431 request header fields too large\n"),
        argumentSet("not HTTP", "hello\r\n\r\n", "400 malformed HTTP request line\n"),
        argumentSet(
            "an unsupported version",
            "GET /ping HTTP/2.0\r\n\r\n",
            "505 unsupported HTTP version HTTP/2.0\n"),
        argumentSet(
            "a header line without a colon",
            "GET /ping HTTP/1.1\r\nHost t\r\n\r\n",
            "400 malformed HTTP header line\n"),
        argumentSet(
            "a Content-Length that is not a number",
            "POST /echo HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n",
            "400 Content-Length: invalid value \"1e3\"\n"),
        argumentSet(
            "two Content-Lengths",
            "POST /echo HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "400 Content-Length: conflicting values\n"),
        argumentSet(
            "Content-Length with chunked (request smuggling)",
            "POST /echo HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "400 Content-Length: not allowed with Transfer-Encoding\n"),
        argumentSet(
            "an unsupported transfer coding",
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            "501 Transfer-Encoding: unsupported value \"gzip\"\n"),
        argumentSet(
            "a malformed chunk",
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "400 malformed chunked encoding\n"),
        argumentSet(
            "a wrong method",
            "GET /echo HTTP/1.1\r\nConnection: close\r\n\r\n",
            "405 method GET not allowed; use POST\n"),
        argumentSet(
            "an unknown path",
            "GET /nope HTTP/1.1\r\nConnection: close\r\n\r\n",
            "404 404 page not found\n"),
        argumentSet(
            "a handler's IllegalArgumentException is a 400 with its message",
            RawHttp.post("/echo", "bad"),
            "400 invalid request: Pod: Required value\n"),
        argumentSet(
            "a handler's bug is a 500 without a trace",
            RawHttp.post("/echo", "bug"),
            "500 internal error: NullPointerException\n"),
        argumentSet(
            "a chunked body within the limit is read",
            "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: x\r\n\r\n",
            "200 5 bytes\n"));
  }

  @ParameterizedTest
  @MethodSource("refusals")
  void refusals(String raw, String want) throws Exception {
    BoundedHttpServer s = server(LIMITS);

    assertThat(exchange(s, raw)).isEqualTo(want);
    assertThat(observations.tryAcquire(1, 20, TimeUnit.SECONDS)).isTrue();
    assertThat(observed).hasSize(1);
  }

  @Test
  void aSilentConnectionIsClosedAfterTheHeaderTimeout() throws Exception {
    BoundedHttpServer s = server(LIMITS);

    assertThat(exchange(s, "")).isEmpty();
  }

  @Test
  void aClientTricklingItsHeadersIsClosedAtTheHeaderDeadline() throws Exception {
    BoundedHttpServer s = server(LIMITS);
    ScheduledExecutorService trickler = Executors.newSingleThreadScheduledExecutor();
    AtomicInteger sent = new AtomicInteger();
    try (RawHttp c = new RawHttp(s.address())) {
      c.send("POST /echo HTTP/1.1\r\n");
      // one byte every 20 ms: each read is quick, the whole head never completes
      trickler.scheduleAtFixedRate(
          () -> {
            try {
              c.send("a");
              sent.incrementAndGet();
            } catch (java.io.IOException e) {
              throw new RuntimeException(e);
            }
          },
          0,
          20,
          TimeUnit.MILLISECONDS);

      assertThat(c.readToEnd()).isEmpty();
    } finally {
      trickler.shutdownNow();
    }
    // the header limit (512 bytes) was not what stopped it: the deadline was
    assertThat(sent.get()).isLessThan(LIMITS.maxHeaderBytes());
  }

  @Test
  void aSlowBodyIsCutAndItsWorkerFreed() throws Exception {
    BoundedHttpServer s = server(LIMITS);
    try (RawHttp c = new RawHttp(s.address())) {
      c.send("POST /echo HTTP/1.1\r\nContent-Length: 100\r\n\r\n0123456789");

      assertThat(c.readToEnd()).isEmpty();
    }
    assertThat(exchange(s, RawHttp.post("/echo", "abc"))).isEqualTo("200 3 bytes\n");
  }

  @Test
  void beyondTheWorkersARequestGets503AndItsConnectionStaysUsable() throws Exception {
    BoundedHttpServer s =
        server(
            LIMITS.withTimeouts(
                Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5)));
    try (RawHttp busy = new RawHttp(s.address());
        RawHttp other = new RawHttp(s.address())) {
      busy.send(RawHttp.post("/echo", "block"));
      assertThat(entered.await(20, TimeUnit.SECONDS)).isTrue();
      String keepAlive = "POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\nhi";

      String refused = RawHttp.statusAndBody(other.send(keepAlive).readResponse());
      // GET routes need no worker
      String ping = RawHttp.statusAndBody(other.send("GET /ping HTTP/1.1\r\n\r\n").readResponse());
      release.countDown();
      String first = RawHttp.statusAndBody(busy.readToEnd());
      String again = RawHttp.statusAndBody(other.send(keepAlive).readResponse());

      assertThat(refused)
          .isEqualTo("503 server busy: all 1 workers are answering other requests; retry later\n");
      assertThat(ping).isEqualTo("200 pong");
      assertThat(first).isEqualTo("200 5 bytes\n");
      assertThat(again).isEqualTo("200 2 bytes\n");
      // each exchange is observed once its answer is written, so possibly after the client read it
      assertThat(observations.tryAcquire(4, 20, TimeUnit.SECONDS)).isTrue();
      assertThat(observed)
          .containsExactlyInAnyOrder("/echo 503", "/ping 200", "/echo 200", "/echo 200");
    }
  }

  @Test
  void connectionsBeyondTheLimitAreRefusedWith503() throws Exception {
    BoundedHttpServer s =
        server(
            LIMITS.withTimeouts(
                Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(20)));
    List<RawHttp> held = new ArrayList<>();
    try {
      for (int i = 0; i < LIMITS.maxConnections(); i++) {
        RawHttp c = new RawHttp(s.address());
        held.add(c);
        // a completed exchange proves the connection holds its slot
        assertThat(RawHttp.statusAndBody(c.send("GET /ping HTTP/1.1\r\n\r\n").readResponse()))
            .isEqualTo("200 pong");
      }

      assertThat(exchange(s, "GET /ping HTTP/1.1\r\n\r\n")).isEqualTo("503 too many connections\n");
    } finally {
      for (RawHttp c : held) {
        c.close();
      }
    }
  }

  @Test
  void expectContinueIsAnsweredBeforeTheBodyIsSent() throws Exception {
    BoundedHttpServer s = server(LIMITS);
    try (RawHttp c = new RawHttp(s.address())) {
      c.send(
          "POST /echo HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n"
              + "Connection: close\r\n\r\n");
      byte[] interim = c.socket.getInputStream().readNBytes(25);

      assertThat(new String(interim, StandardCharsets.ISO_8859_1))
          .isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
      assertThat(RawHttp.statusAndBody(c.send("abcd").readToEnd())).isEqualTo("200 4 bytes\n");
    }
  }
}
