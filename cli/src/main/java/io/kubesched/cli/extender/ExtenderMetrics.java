package io.kubesched.cli.extender;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * The extender server's Prometheus metrics, in a registry of its own:
 *
 * <ul>
 *   <li>{@code kubesched_extender_requests_total{verb, code}}: requests answered, by verb ({@code
 *       filter}, {@code prioritize}, {@code bind}, {@code preempt}, {@code healthz}, {@code
 *       readyz}, {@code metrics}, {@code other}) and HTTP status code;
 *   <li>{@code kubesched_extender_request_duration_seconds{verb}}: the time from a request's first
 *       byte to its answer, by verb (classic buckets from 1 ms to about 33 s).
 * </ul>
 */
public final class ExtenderMetrics implements BoundedHttpServer.Observer {
  private static final Set<String> VERBS =
      Set.of("filter", "prioritize", "bind", "preempt", "healthz", "readyz", "metrics");

  private final PrometheusRegistry registry;
  private final Counter requests;
  private final Histogram duration;
  private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();

  /** Registers the metrics in {@code registry}. */
  public ExtenderMetrics(PrometheusRegistry registry) {
    this.registry = registry;
    this.requests =
        Counter.builder()
            .name("kubesched_extender_requests_total")
            .help("Extender HTTP requests answered, by verb and status code.")
            .labelNames("verb", "code")
            .register(registry);
    double[] buckets = new double[16];
    double b = 0.001;
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] = b;
      b *= 2;
    }
    this.duration =
        Histogram.builder()
            .name("kubesched_extender_request_duration_seconds")
            .help("Extender HTTP request latency in seconds, by verb.")
            .labelNames("verb")
            .classicOnly()
            .classicUpperBounds(buckets)
            .register(registry);
  }

  /** The verb label of a path. */
  static String verb(String path) {
    String v = path.startsWith("/") ? path.substring(1) : path;
    return VERBS.contains(v) ? v : "other";
  }

  @Override
  public void observe(String path, int status, long nanos) {
    String verb = verb(path);
    requests.labelValues(verb, Integer.toString(status)).inc();
    duration.labelValues(verb).observe(nanos / 1e9);
  }

  /** Returns how many requests of {@code verb} were answered with {@code code}. */
  public long count(String verb, int code) {
    return (long) requests.labelValues(verb, Integer.toString(code)).get();
  }

  /** Returns the registry's metrics in the Prometheus text format 0.0.4. */
  public BoundedHttpServer.Response scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      writer.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new BoundedHttpServer.Response(200, writer.getContentType(), out.toByteArray());
  }
}
