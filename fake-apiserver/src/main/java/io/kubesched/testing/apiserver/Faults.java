package io.kubesched.testing.apiserver;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The faults a {@link FakeApiServer} injects, for tests of clients under failure ({@link
 * FakeApiServer#faults()}). Requests are named as Kubernetes' RBAC names them: a verb ({@code get,
 * list, watch, create, update, patch, delete}) and a resource ({@code pods}, {@code nodes}, a
 * subresource as {@code pods/binding} or {@code pods/status}, the bindings collection as {@code
 * bindings}); {@code "*"} matches any.
 *
 * <ul>
 *   <li>{@link #failNext}: the next N matching requests answer an error status (409 Conflict, 410
 *       Gone, 429 TooManyRequests with {@code Retry-After: 1}, 500 InternalError, 503
 *       ServiceUnavailable) without doing anything.
 *   <li>{@link #loseNextResponses}: the next N matching requests are carried out, then the
 *       connection is closed without a response (the client cannot know the write happened).
 *   <li>{@link #latency}: every request waits this long before it is served.
 *   <li>{@link #unavailableFor}: every request answers 503 until the period ends.
 *   <li>{@link FakeApiServer#cutWatches()}: ends every open watch stream (clients must re-watch).
 * </ul>
 *
 * Thread-safe. Every fault served is counted ({@link #injected()}).
 */
public final class Faults {
  private final Clock clock;
  private final List<Rule> rules = new ArrayList<>();
  private Duration latency = Duration.ZERO;
  private Instant unavailableUntil = Instant.MIN;
  private long injected;

  Faults(Clock clock) {
    this.clock = clock;
  }

  /** A matching rule: remaining count, and the status to answer (0 to lose the response). */
  private static final class Rule {
    final String verb;
    final String resource;
    final int code;
    int remaining;

    Rule(String verb, String resource, int code, int remaining) {
      this.verb = verb;
      this.resource = resource;
      this.code = code;
      this.remaining = remaining;
    }

    boolean matches(String v, String r) {
      return (verb.equals("*") || verb.equals(v)) && (resource.equals("*") || resource.equals(r));
    }
  }

  private static final Map<Integer, String> REASONS =
      Map.of(
          409, "Conflict",
          410, "Expired",
          429, "TooManyRequests",
          500, "InternalError",
          503, "ServiceUnavailable");

  /**
   * Makes the next {@code count} requests of {@code verb} on {@code resource} answer {@code code}.
   *
   * @throws IllegalArgumentException for a code other than 409, 410, 429, 500, 503 or a count < 1
   */
  public synchronized Faults failNext(String verb, String resource, int count, int code) {
    if (!REASONS.containsKey(code)) {
      throw new IllegalArgumentException("unsupported fault status " + code);
    }
    add(verb, resource, count, code);
    return this;
  }

  /**
   * Makes the next {@code count} requests of {@code verb} on {@code resource} take effect and then
   * lose their response (the connection closes before any byte of it is sent).
   */
  public synchronized Faults loseNextResponses(String verb, String resource, int count) {
    add(verb, resource, count, 0);
    return this;
  }

  /** Delays every request by {@code delay} (zero to stop). */
  public synchronized Faults latency(Duration delay) {
    latency = Objects.requireNonNull(delay);
    return this;
  }

  /** Answers every request with 503 ServiceUnavailable for {@code period} from now. */
  public synchronized Faults unavailableFor(Duration period) {
    unavailableUntil = clock.instant().plus(period);
    return this;
  }

  /** Removes every fault (requests already delayed still complete). */
  public synchronized Faults clear() {
    rules.clear();
    latency = Duration.ZERO;
    unavailableUntil = Instant.MIN;
    return this;
  }

  /** Returns how many faults were served so far (errors, lost responses, unavailable answers). */
  public synchronized long injected() {
    return injected;
  }

  /** Returns whether every {@link #failNext}/{@link #loseNextResponses} rule was used up. */
  public synchronized boolean exhausted() {
    return rules.isEmpty();
  }

  private void add(String verb, String resource, int count, int code) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1");
    }
    rules.add(
        new Rule(verb.toLowerCase(Locale.ROOT), resource.toLowerCase(Locale.ROOT), code, count));
  }

  synchronized Duration latency() {
    return latency;
  }

  /**
   * Decides a request before it is served: throws the error to answer, or returns whether the
   * response is to be lost after serving it.
   */
  synchronized boolean before(String verb, String resource) throws ApiError {
    if (clock.instant().isBefore(unavailableUntil)) {
      injected++;
      throw new ApiError(
          503, "ServiceUnavailable", "the server is currently unable to handle the request");
    }
    for (Iterator<Rule> it = rules.iterator(); it.hasNext(); ) {
      Rule r = it.next();
      if (r.matches(verb, resource)) {
        if (--r.remaining == 0) {
          it.remove();
        }
        injected++;
        if (r.code == 0) {
          return true;
        }
        throw new ApiError(
            r.code,
            REASONS.get(r.code),
            "injected fault: " + verb + " " + resource + " answers " + r.code);
      }
    }
    return false;
  }
}
