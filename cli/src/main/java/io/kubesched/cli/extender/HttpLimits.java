package io.kubesched.cli.extender;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits {@link BoundedHttpServer} enforces on its clients.
 *
 * @param maxRequestBytes the largest request body accepted; a larger one is answered with 413
 *     without being read
 * @param maxHeaderBytes the largest request line plus headers; more is answered with 431
 * @param readHeaderTimeout how long a client may take to send a request's line and headers (TLS
 *     handshake included for the first request of a connection), counted from its first byte
 * @param readTimeout how long a client may take to send a request's body
 * @param writeTimeout how long writing a response may take before the connection is closed
 * @param idleTimeout how long a kept-alive connection may wait for its next request
 * @param workers how many requests are read and evaluated at once; a request beyond them is
 *     answered with 503 at once
 * @param maxConnections how many connections are kept open at once; beyond them a new connection is
 *     closed at once (answered with 503 when it is plain HTTP)
 */
public record HttpLimits(
    long maxRequestBytes,
    int maxHeaderBytes,
    Duration readHeaderTimeout,
    Duration readTimeout,
    Duration writeTimeout,
    Duration idleTimeout,
    int workers,
    int maxConnections) {

  /**
   * The default body limit, 256 MiB: a filter request carrying 15,000 full Node objects of about 16
   * KiB of JSON each (a node's status lists up to 50 container images); with node names, such a
   * request is about 0.3 MiB.
   */
  public static final long DEFAULT_MAX_REQUEST_BYTES = 256L << 20;

  /** The default header limit, 1 MiB, as Go's {@code http.DefaultMaxHeaderBytes}. */
  public static final int DEFAULT_MAX_HEADER_BYTES = 1 << 20;

  /** Checks the limits. */
  public HttpLimits {
    if (maxRequestBytes <= 0) {
      throw new IllegalArgumentException(
          "maxRequestBytes must be positive, got " + maxRequestBytes);
    }
    if (maxHeaderBytes <= 0) {
      throw new IllegalArgumentException("maxHeaderBytes must be positive, got " + maxHeaderBytes);
    }
    positive(readHeaderTimeout, "readHeaderTimeout");
    positive(readTimeout, "readTimeout");
    positive(writeTimeout, "writeTimeout");
    positive(idleTimeout, "idleTimeout");
    if (workers <= 0) {
      throw new IllegalArgumentException("workers must be positive, got " + workers);
    }
    if (maxConnections < workers) {
      throw new IllegalArgumentException(
          "maxConnections must be at least workers (" + workers + "), got " + maxConnections);
    }
  }

  private static void positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + d);
    }
  }

  /**
   * The defaults: {@value #DEFAULT_MAX_REQUEST_BYTES} bytes of body, 1 MiB of headers, 10 s for the
   * headers, 60 s for the body, 60 s to write, 120 s idle (longer than the 90 s after which
   * kube-scheduler's HTTP client drops idle connections), one worker per processor (at least 2),
   * 512 connections.
   */
  public static HttpLimits defaults() {
    return new HttpLimits(
        DEFAULT_MAX_REQUEST_BYTES,
        DEFAULT_MAX_HEADER_BYTES,
        Duration.ofSeconds(10),
        Duration.ofSeconds(60),
        Duration.ofSeconds(60),
        Duration.ofSeconds(120),
        Math.max(2, Runtime.getRuntime().availableProcessors()),
        512);
  }

  /** Returns a copy with {@code maxRequestBytes}. */
  public HttpLimits withMaxRequestBytes(long bytes) {
    return new HttpLimits(
        bytes,
        maxHeaderBytes,
        readHeaderTimeout,
        readTimeout,
        writeTimeout,
        idleTimeout,
        workers,
        maxConnections);
  }

  /** Returns a copy with the three read and write timeouts. */
  public HttpLimits withTimeouts(Duration readHeader, Duration read, Duration write) {
    return new HttpLimits(
        maxRequestBytes,
        maxHeaderBytes,
        readHeader,
        read,
        write,
        idleTimeout,
        workers,
        maxConnections);
  }

  /** Returns a copy with {@code workers} (and at least as many connections). */
  public HttpLimits withWorkers(int n) {
    return new HttpLimits(
        maxRequestBytes,
        maxHeaderBytes,
        readHeaderTimeout,
        readTimeout,
        writeTimeout,
        idleTimeout,
        n,
        Math.max(maxConnections, n));
  }
}
