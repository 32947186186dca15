package io.kubesched.cli.extender;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small HTTP/1.1 server (plain or TLS, optionally requiring a client certificate) that enforces
 * {@link HttpLimits} on every client, for services exposed to a network:
 *
 * <ul>
 *   <li>a request body larger than {@link HttpLimits#maxRequestBytes()} is answered with 413
 *       without being read (a chunked one as soon as it crosses the limit);
 *   <li>a client that does not send a request's headers within {@link
 *       HttpLimits#readHeaderTimeout()} (counted from the connection or the request's first byte,
 *       TLS handshake included), or its body within {@link HttpLimits#readTimeout()}, is
 *       disconnected; so is one that does not read its response within {@link
 *       HttpLimits#writeTimeout()}, and a kept-alive connection idle for {@link
 *       HttpLimits#idleTimeout()};
 *   <li>the bodies of {@linkplain Route#worker() worker routes} are read and handled by at most
 *       {@link HttpLimits#workers()} requests at once: one more is answered with 503 at once (its
 *       body skipped, not stored), so memory and CPU stay bounded under any load;
 *   <li>malformed requests are answered with 400 (or 404, 405, 431, 501, 505) naming the problem.
 * </ul>
 *
 * Each connection is served by its own thread (at most {@link HttpLimits#maxConnections()}).
 * Keep-alive and {@code Expect: 100-continue} are supported; responses always carry a {@code
 * Content-Length}.
 */
public final class BoundedHttpServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(BoundedHttpServer.class);

  /** What a lingering close reads at most from a client whose body was not read. */
  private static final int LINGER_BYTES = 1 << 20;

  private static final Duration LINGER_TIME = Duration.ofSeconds(1);

  /**
   * A request.
   *
   * @param method the method, e.g. {@code POST}
   * @param path the path, without the query
   * @param headers the headers, by lower-case name (the last value of a repeated one)
   * @param body the body (empty when none)
   */
  public record Request(String method, String path, Map<String, String> headers, byte[] body) {}

  /**
   * A response.
   *
   * @param status the status code
   * @param contentType the {@code Content-Type}
   * @param body the body
   */
  public record Response(int status, String contentType, byte[] body) {
    /** A {@code text/plain} response; {@code text} should end with a newline. */
    public static Response text(int status, String text) {
      return new Response(
          status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
    }

    /** A 200 {@code application/json} response. */
    public static Response json(String json) {
      return new Response(200, "application/json", json.getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Answers requests; an {@link IllegalArgumentException} becomes a 400 with its message. */
  @FunctionalInterface
  public interface Handler {
    /** Answers {@code request}. */
    Response handle(Request request);
  }

  /** Told of every answered request (e.g. for metrics). */
  @FunctionalInterface
  public interface Observer {
    /**
     * Called after a response was written (or refused).
     *
     * @param path the request's path ({@code ""} when it could not be read)
     * @param status the status code
     * @param nanos the time from the request's first byte to its response
     */
    void observe(String path, int status, long nanos);
  }

  /**
   * A route.
   *
   * @param methods the accepted methods
   * @param worker whether a request must hold one of the workers to be read and handled
   * @param handler the handler
   */
  public record Route(Set<String> methods, boolean worker, Handler handler) {
    /** Copies the methods. */
    public Route {
      methods = Set.copyOf(methods);
      Objects.requireNonNull(handler, "handler");
    }
  }

  private final Map<String, Route> routes;
  private final HttpLimits limits;
  private final SSLContext tls;
  private final boolean needClientAuth;
  private final Observer observer;
  private final Semaphore workers;
  private final Semaphore connections;
  private final ExecutorService connectionThreads;
  private final ScheduledExecutorService timers;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  private ServerSocket socket;
  private Thread acceptor;

  /**
   * Creates a server; nothing listens before {@link #start(InetSocketAddress)}.
   *
   * @param routes the routes, by exact path
   * @param limits the limits
   * @param tls the TLS context of the server certificate, or {@code null} for plain HTTP
   * @param needClientAuth whether clients must present a certificate trusted by {@code tls}
   * @param observer told of every answered request
   */
  public BoundedHttpServer(
      Map<String, Route> routes,
      HttpLimits limits,
      SSLContext tls,
      boolean needClientAuth,
      Observer observer) {
    this.routes = Map.copyOf(routes);
    this.limits = Objects.requireNonNull(limits, "limits");
    this.tls = tls;
    this.needClientAuth = needClientAuth;
    if (needClientAuth && tls == null) {
      throw new IllegalArgumentException("client authentication needs TLS");
    }
    this.observer = Objects.requireNonNull(observer, "observer");
    this.workers = new Semaphore(limits.workers());
    this.connections = new Semaphore(limits.maxConnections());
    this.connectionThreads = Executors.newCachedThreadPool(daemon("kubesched-http-conn"));
    this.timers = Executors.newSingleThreadScheduledExecutor(daemon("kubesched-http-timer"));
  }

  /**
   * Listens on {@code address} (port 0: a free port).
   *
   * @throws IOException when the address cannot be bound
   */
  public synchronized void start(InetSocketAddress address) throws IOException {
    if (socket != null || closed) {
      throw new IllegalStateException("already started or closed");
    }
    ServerSocket ss =
        tls == null ? new ServerSocket() : tls.getServerSocketFactory().createServerSocket();
    if (ss instanceof SSLServerSocket s) {
      s.setNeedClientAuth(needClientAuth);
    }
    ss.setReuseAddress(true);
    try {
      ss.bind(address, 256);
    } catch (IOException e) {
      ss.close();
      throw e;
    }
    socket = ss;
    acceptor = daemon("kubesched-http-accept").newThread(() -> acceptLoop(ss));
    acceptor.start();
  }

  /** Returns the bound address; the server must be started. */
  public synchronized InetSocketAddress address() {
    if (socket == null) {
      throw new IllegalStateException("not started");
    }
    return (InetSocketAddress) socket.getLocalSocketAddress();
  }

  /** Returns how many workers are busy. */
  public int busyWorkers() {
    return limits.workers() - workers.availablePermits();
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (socket != null) {
      closeQuietly(socket);
    }
    for (Socket s : open) {
      closeQuietly(s);
    }
    connectionThreads.shutdownNow();
    timers.shutdownNow();
  }

  private void acceptLoop(ServerSocket ss) {
    while (!closed) {
      Socket s;
      try {
        s = ss.accept();
      } catch (IOException e) {
        if (!closed) {
          log.atWarn().setMessage("accept failed: {}").addArgument(e.toString()).log();
        }
        continue;
      }
      if (!connections.tryAcquire()) {
        refuse(s);
        continue;
      }
      try {
        connectionThreads.execute(
            () -> {
              try {
                serve(s);
              } finally {
                connections.release();
              }
            });
      } catch (RejectedExecutionException e) {
        connections.release();
        closeQuietly(s);
      }
    }
  }

  /** Closes a connection beyond the limit, with a 503 when it is plain HTTP. */
  private void refuse(Socket s) {
    try (s) {
      if (!(s instanceof SSLSocket)) {
        byte[] body = "too many connections\n".getBytes(StandardCharsets.US_ASCII);
        String head =
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Retry-After: 1\r\nConnection: close\r\nContent-Length: "
                + body.length
                + "\r\n\r\n";
        OutputStream out = s.getOutputStream();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
      }
    } catch (IOException e) {
      // the client went away
    }
    observer.observe("", 503, 0);
  }

  // ---------------------------------------------------------------- one connection

  private void serve(Socket s) {
    open.add(s);
    if (closed) {
      closeQuietly(s);
    }
    try (s) {
      s.setTcpNoDelay(true);
      DeadlineInput in = new DeadlineInput(s);
      OutputStream out = s.getOutputStream();
      Duration wait = limits.readHeaderTimeout();
      while (!closed) {
        in.deadline(wait);
        if (!in.awaitByte()) {
          return;
        }
        long start = System.nanoTime();
        in.deadline(limits.readHeaderTimeout());
        if (!exchange(s, in, out, start)) {
          return;
        }
        wait = limits.idleTimeout();
      }
    } catch (SocketTimeoutException e) {
      log.atDebug().setMessage("closing a slow connection").addKeyValue("peer", peer(s)).log();
    } catch (IOException | RuntimeException e) {
      log.atDebug()
          .setMessage("connection closed: {}")
          .addArgument(e.toString())
          .addKeyValue("peer", peer(s))
          .log();
    } finally {
      open.remove(s);
    }
  }

  private record Head(
      String method, String path, boolean http10, Map<String, String> headers, long length) {
    boolean chunked() {
      return length < 0;
    }

    boolean keepAlive() {
      String c = headers.getOrDefault("connection", "").toLowerCase(Locale.ROOT);
      return http10 ? c.contains("keep-alive") : !c.contains("close");
    }
  }

  /** Reads and answers one request; returns whether the connection stays open. */
  private boolean exchange(Socket s, DeadlineInput in, OutputStream out, long start)
      throws IOException {
    Head head;
    try {
      head = readHead(in);
    } catch (HttpError e) {
      respond(s, out, Response.text(e.status, e.getMessage() + "\n"), false, false, "", start);
      linger(s, in);
      return false;
    }
    Route route = routes.get(head.path());
    HttpError refusal = null;
    if (route == null) {
      refusal = new HttpError(404, "404 page not found");
    } else if (!route.methods().contains(head.method())) {
      refusal =
          new HttpError(
              405,
              "method "
                  + head.method()
                  + " not allowed; use "
                  + String.join(", ", route.methods()));
    } else if (head.length() > limits.maxRequestBytes()) {
      refusal = tooLarge("Content-Length " + head.length() + " exceeds");
    }
    if (refusal != null) {
      boolean keep = head.length() == 0 && head.keepAlive();
      respond(
          s,
          out,
          Response.text(refusal.status, refusal.getMessage() + "\n"),
          keep,
          head.method().equals("HEAD"),
          head.path(),
          start);
      if (!keep) {
        linger(s, in);
      }
      return keep;
    }
    boolean expectContinue =
        "100-continue".equalsIgnoreCase(head.headers().getOrDefault("expect", ""));
    if (route.worker() && !workers.tryAcquire()) {
      // skip the body (without storing it) to keep the connection usable, unless the client is
      // waiting for a 100 Continue before sending it
      boolean keep = head.keepAlive() && !expectContinue && skipBody(in, head);
      respond(
          s,
          out,
          Response.text(
              503,
              "server busy: all "
                  + limits.workers()
                  + " workers are answering other requests; retry later\n"),
          keep,
          false,
          head.path(),
          start);
      return keep;
    }
    try {
      if (expectContinue) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      in.deadline(limits.readTimeout());
      byte[] body;
      try {
        body = head.chunked() ? readChunked(in) : in.readFully((int) head.length());
      } catch (HttpError e) {
        respond(
            s,
            out,
            Response.text(e.status, e.getMessage() + "\n"),
            false,
            false,
            head.path(),
            start);
        linger(s, in);
        return false;
      }
      Response r = handle(route, new Request(head.method(), head.path(), head.headers(), body));
      boolean keep = head.keepAlive();
      respond(s, out, r, keep, head.method().equals("HEAD"), head.path(), start);
      return keep;
    } finally {
      if (route.worker()) {
        workers.release();
      }
    }
  }

  private HttpError tooLarge(String size) {
    return new HttpError(
        413,
        "request body too large: "
            + size
            + " the limit of "
            + limits.maxRequestBytes()
            + " bytes (--max-request-bytes)");
  }

  private static Response handle(Route route, Request request) {
    try {
      return route.handler().handle(request);
    } catch (IllegalArgumentException e) {
      return Response.text(400, "invalid request: " + e.getMessage() + "\n");
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("request failed")
          .addKeyValue("path", request.path())
          .setCause(e)
          .log();
      return Response.text(500, "internal error: " + e.getClass().getSimpleName() + "\n");
    }
  }

  private Head readHead(DeadlineInput in) throws IOException, HttpError {
    int[] budget = {limits.maxHeaderBytes()};
    String line = in.line(budget);
    String[] parts = line.split(" ", -1);
    if (parts.length != 3 || parts[0].isEmpty() || !parts[1].startsWith("/")) {
      throw new HttpError(400, "malformed HTTP request line");
    }
    if (!parts[2].startsWith("HTTP/1.")) {
      throw new HttpError(505, "unsupported HTTP version " + parts[2]);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    String contentLength = null;
    for (String h = in.line(budget); !h.isEmpty(); h = in.line(budget)) {
      int colon = h.indexOf(':');
      if (colon <= 0 || h.substring(0, colon).isBlank() || h.charAt(colon - 1) == ' ') {
        throw new HttpError(400, "malformed HTTP header line");
      }
      String name = h.substring(0, colon).toLowerCase(Locale.ROOT);
      String value = h.substring(colon + 1).trim();
      if (name.equals("content-length")) {
        if (contentLength != null && !contentLength.equals(value)) {
          throw new HttpError(400, "Content-Length: conflicting values");
        }
        contentLength = value;
      }
      headers.put(name, value);
    }
    long length = 0;
    String te = headers.get("transfer-encoding");
    if (te != null) {
      if (!te.equalsIgnoreCase("chunked")) {
        throw new HttpError(501, "Transfer-Encoding: unsupported value \"" + te + "\"");
      }
      if (contentLength != null) {
        throw new HttpError(400, "Content-Length: not allowed with Transfer-Encoding");
      }
      length = -1;
    } else if (contentLength != null) {
      try {
        length = Long.parseLong(contentLength);
      } catch (NumberFormatException e) {
        length = -2;
      }
      if (length < 0 || !contentLength.chars().allMatch(Character::isDigit)) {
        throw new HttpError(400, "Content-Length: invalid value \"" + contentLength + "\"");
      }
    }
    String target = parts[1];
    int q = target.indexOf('?');
    String path = q < 0 ? target : target.substring(0, q);
    return new Head(parts[0], path, parts[2].equals("HTTP/1.0"), headers, length);
  }

  private byte[] readChunked(DeadlineInput in) throws IOException, HttpError {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int[] budget = {limits.maxHeaderBytes()};
    for (; ; ) {
      String line = in.line(budget);
      int semi = line.indexOf(';');
      long size;
      try {
        size = Long.parseLong((semi < 0 ? line : line.substring(0, semi)).trim(), 16);
      } catch (NumberFormatException e) {
        throw new HttpError(400, "malformed chunked encoding");
      }
      if (size < 0) {
        throw new HttpError(400, "malformed chunked encoding");
      }
      if (size == 0) {
        while (!in.line(budget).isEmpty()) {
          // trailers are ignored
        }
        return body.toByteArray();
      }
      if (body.size() + size > limits.maxRequestBytes()) {
        throw tooLarge("the chunked body exceeds");
      }
      body.write(in.readFully((int) size));
      if (!in.line(budget).isEmpty()) {
        throw new HttpError(400, "malformed chunked encoding");
      }
    }
  }

  /** Skips a body within the read timeout; returns false when it could not be skipped. */
  private boolean skipBody(DeadlineInput in, Head head) throws IOException {
    in.deadline(limits.readTimeout());
    if (!head.chunked()) {
      in.skip(head.length());
      return true;
    }
    return false;
  }

  private void respond(
      Socket s,
      OutputStream out,
      Response r,
      boolean keepAlive,
      boolean headOnly,
      String path,
      long start)
      throws IOException {
    StringBuilder h = new StringBuilder(160);
    h.append("HTTP/1.1 ").append(r.status()).append(' ').append(reason(r.status())).append("\r\n");
    h.append("Content-Type: ").append(r.contentType()).append("\r\n");
    h.append("Content-Length: ").append(r.body().length).append("\r\n");
    h.append("X-Content-Type-Options: nosniff\r\n");
    if (r.status() == 503) {
      h.append("Retry-After: 1\r\n");
    }
    if (!keepAlive) {
      h.append("Connection: close\r\n");
    }
    h.append("\r\n");
    ScheduledFuture<?> guard =
        timers.schedule(
            () -> closeQuietly(s), limits.writeTimeout().toNanos(), TimeUnit.NANOSECONDS);
    try {
      out.write(h.toString().getBytes(StandardCharsets.ISO_8859_1));
      if (!headOnly) {
        out.write(r.body());
      }
      out.flush();
    } finally {
      guard.cancel(false);
      observer.observe(path, r.status(), System.nanoTime() - start);
    }
  }

  /** Reads (and drops) what the client still sends for a moment, so it can read the answer. */
  private static void linger(Socket s, DeadlineInput in) {
    try {
      if (!(s instanceof SSLSocket)) {
        s.shutdownOutput();
      }
      in.deadline(LINGER_TIME);
      in.skipAtMost(LINGER_BYTES);
    } catch (IOException e) {
      // closing anyway
    }
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 413 -> "Request Entity Too Large";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 501 -> "Not Implemented";
      case 503 -> "Service Unavailable";
      case 505 -> "HTTP Version Not Supported";
      default -> "Status";
    };
  }

  private static String peer(Socket s) {
    return String.valueOf(s.getRemoteSocketAddress());
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException e) {
      // nothing to do
    }
  }

  private static ThreadFactory daemon(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
