package io.kubesched.core.kubernetes;

import com.google.common.base.Ticker;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;
import okhttp3.Interceptor;
import okhttp3.Response;

/**
 * client-go's client-side rate limiting ({@code flowcontrol.NewTokenBucketRateLimiter(qps,
 * burst)}): a token bucket of {@code burst} tokens, full at the start and refilled at {@code qps}
 * tokens a second; every request to the API server takes one token, waiting for it when the bucket
 * is empty. As an OkHttp {@link Interceptor} it limits every call of the {@code ApiClient} it is
 * added to (reads, writes, and the list and watch requests of the informers).
 *
 * <p>Guava's {@code RateLimiter} is not used: its burst is fixed to one second of permits and it
 * starts empty, where client-go's bucket holds {@code burst} tokens and starts full.
 *
 * <p>Thread-safe; waiting threads are served in the order they asked.
 */
public final class ClientRateLimiter implements Interceptor {
  /** client-go's {@code rest.DefaultQPS}, used when the configured QPS is 0. */
  public static final float DEFAULT_QPS = 5f;

  /** client-go's {@code rest.DefaultBurst}, used when the configured burst is 0. */
  public static final int DEFAULT_BURST = 10;

  /** Waits for a number of nanoseconds (a fake in tests). */
  @FunctionalInterface
  public interface Sleeper {
    /** Sleeps {@code nanos} nanoseconds. */
    void sleep(long nanos) throws InterruptedException;
  }

  private final double qps;
  private final int burst;
  private final Ticker ticker;
  private final Sleeper sleeper;
  private double tokens;
  private long last;

  /**
   * Creates a full bucket.
   *
   * @param qps the refill rate in tokens per second, positive
   * @param burst the capacity of the bucket, positive
   * @param ticker the time source
   * @param sleeper waits for the next token
   */
  public ClientRateLimiter(double qps, int burst, Ticker ticker, Sleeper sleeper) {
    if (!(qps > 0) || burst < 1) {
      throw new IllegalArgumentException(
          "qps and burst must be positive, got qps " + qps + " and burst " + burst);
    }
    this.qps = qps;
    this.burst = burst;
    this.ticker = ticker;
    this.sleeper = sleeper;
    this.tokens = burst;
    this.last = ticker.read();
  }

  /**
   * Returns the limiter client-go builds for a {@code rest.Config}: {@code null} (no limit) when
   * {@code qps} is negative; QPS 0 means {@value #DEFAULT_QPS} and burst 0 means {@value
   * #DEFAULT_BURST}, as in client-go.
   */
  public static ClientRateLimiter forConfig(float qps, int burst) {
    if (qps < 0) {
      return null;
    }
    return new ClientRateLimiter(
        qps == 0 ? DEFAULT_QPS : qps,
        burst == 0 ? DEFAULT_BURST : burst,
        Ticker.systemTicker(),
        nanos -> TimeUnit.NANOSECONDS.sleep(nanos));
  }

  /** Returns the refill rate. */
  public double qps() {
    return qps;
  }

  /** Returns the capacity of the bucket. */
  public int burst() {
    return burst;
  }

  /**
   * Takes one token, first waiting until there is one.
   *
   * @throws InterruptedException when interrupted while waiting (the token stays taken)
   */
  public void acquire() throws InterruptedException {
    long wait = reserve();
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }

  /** Takes a token now, possibly going into debt, and returns how long to wait for it. */
  private synchronized long reserve() {
    long now = ticker.read();
    tokens = Math.min(burst, tokens + (now - last) / 1e9 * qps);
    last = now;
    tokens -= 1;
    if (tokens >= 0) {
      return 0;
    }
    return (long) Math.ceil(-tokens / qps * 1e9);
  }

  @Override
  public Response intercept(Chain chain) throws IOException {
    try {
      acquire();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while waiting for the client rate limiter");
    }
    return chain.proceed(chain.request());
  }
}
