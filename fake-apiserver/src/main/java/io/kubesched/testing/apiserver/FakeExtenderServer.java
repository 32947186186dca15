package io.kubesched.testing.apiserver;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A scheduler-extender webhook on a free port of {@code 127.0.0.1} for tests: each path answers
 * with a scripted status and body (or runs a handler), an unknown path answers {@code 404}, a
 * handler that throws answers {@code 500}, and every request is recorded.
 *
 * <p>Thread-safe. Close it to stop the server.
 */
public final class FakeExtenderServer implements AutoCloseable {
  /** A recorded request. */
  public record Request(String method, String path, String contentType, String body) {}

  /** Computes an answer from a request body. */
  public interface Handler {
    /** Answers {@code body}. */
    Answer handle(String body) throws Exception;
  }

  /** A scripted answer. */
  public record Answer(int status, String body) {
    /** A 200 answer. */
    public static Answer ok(String body) {
      return new Answer(200, body);
    }
  }

  private final HttpServer server;
  private final ExecutorService pool = Executors.newCachedThreadPool();
  private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();

  /** Starts the server. */
  public FakeExtenderServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::serve);
    server.setExecutor(pool);
    server.start();
  }

  /** Returns {@code http://127.0.0.1:<port>}. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers {@code path} with 200 and {@code body}. */
  public FakeExtenderServer answer(String path, String body) {
    return on(path, b -> Answer.ok(body));
  }

  /** Answers {@code path} with {@code handler}. */
  public FakeExtenderServer on(String path, Handler handler) {
    handlers.put(path, handler);
    return this;
  }

  /** Returns the requests received so far. */
  public List<Request> requests() {
    return List.copyOf(requests);
  }

  private void serve(HttpExchange ex) throws IOException {
    String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String path = ex.getRequestURI().getPath();
    requests.add(
        new Request(
            ex.getRequestMethod(), path, ex.getRequestHeaders().getFirst("Content-Type"), body));
    Handler h = handlers.get(path);
    Answer a;
    try {
      a = h == null ? new Answer(404, "404 page not found") : h.handle(body);
    } catch (Exception e) {
      a = new Answer(500, e.toString());
    }
    byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(out);
    }
  }

  /** Stops the server. */
  @Override
  public void close() {
    server.stop(0);
    pool.shutdownNow();
  }
}
