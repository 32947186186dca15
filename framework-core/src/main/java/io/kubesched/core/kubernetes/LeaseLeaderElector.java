package io.kubesched.core.kubernetes;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on a {@code coordination.k8s.io/v1} Lease, as client-go's {@code leaderelection}
 * with a {@code LeaseLock}: a candidate takes the lease when it is free or its holder has not
 * renewed it for {@code leaseDuration} (measured on the local clock from when this candidate last
 * saw the lease change, so clocks need not agree), renews it every {@code retryPeriod}, and stops
 * leading when it could not renew for {@code renewDeadline}. Optimistic concurrency (the lease's
 * resourceVersion) decides races.
 *
 * <p>Drive it either step by step with {@link #tryAcquireOrRenew()} (tests) or with {@link
 * #run(Runnable, Runnable)} on an injected executor. Thread-safe.
 */
public final class LeaseLeaderElector implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaseLeaderElector.class);

  /** The timing of an election (kube's defaults: 15 s, 10 s, 2 s). */
  public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    /** Validates that {@code leaseDuration > renewDeadline > retryPeriod > 0}. */
    public Timing {
      if (retryPeriod.isZero() || retryPeriod.isNegative()) {
        throw new IllegalArgumentException("retryPeriod must be greater than zero");
      }
      if (renewDeadline.compareTo(retryPeriod) <= 0) {
        throw new IllegalArgumentException("renewDeadline must be greater than retryPeriod");
      }
      if (leaseDuration.compareTo(renewDeadline) <= 0) {
        throw new IllegalArgumentException("leaseDuration must be greater than renewDeadline");
      }
    }
  }

  private final CoordinationV1Api api;
  private final String namespace;
  private final String name;
  private final String identity;
  private final Timing timing;
  private final Clock clock;
  private final ScheduledExecutorService executor;

  private final Object lock = new Object();
  private V1LeaseSpec observed;
  private Instant observedTime;
  private boolean leading;
  private Instant lastRenew;
  private ScheduledFuture<?> task;
  private boolean stopped;

  /**
   * Creates a candidate.
   *
   * @param client the API client
   * @param namespace the lease's namespace, e.g. {@code kube-system}
   * @param name the lease's name, e.g. {@code kube-scheduler}
   * @param identity this candidate's identity (unique among candidates)
   * @param timing lease duration, renew deadline and retry period
   * @param clock the local clock
   * @param executor runs the retry loop of {@link #run(Runnable, Runnable)}
   */
  public LeaseLeaderElector(
      ApiClient client,
      String namespace,
      String name,
      String identity,
      Timing timing,
      Clock clock,
      ScheduledExecutorService executor) {
    this.api = new CoordinationV1Api(Objects.requireNonNull(client, "client must not be null"));
    this.namespace = Objects.requireNonNull(namespace, "namespace must not be null");
    this.name = Objects.requireNonNull(name, "name must not be null");
    this.identity = Objects.requireNonNull(identity, "identity must not be null");
    this.timing = Objects.requireNonNull(timing, "timing must not be null");
    this.clock = Objects.requireNonNull(clock, "clock must not be null");
    this.executor = Objects.requireNonNull(executor, "executor must not be null");
  }

  /** Returns this candidate's identity. */
  public String identity() {
    return identity;
  }

  /** Returns the holder of the lease as last read, or {@code null} when free or never read. */
  public String observedHolder() {
    synchronized (lock) {
      String h = observed == null ? null : observed.getHolderIdentity();
      return h == null || h.isEmpty() ? null : h;
    }
  }

  /** Returns whether this candidate held the lease at its last successful attempt. */
  public boolean isLeader() {
    synchronized (lock) {
      return leading;
    }
  }

  /**
   * Makes one attempt to take or renew the lease; returns whether this candidate holds it now. API
   * errors count as a failed attempt (logged). Always {@code false} after {@link #close()}.
   */
  public boolean tryAcquireOrRenew() {
    synchronized (lock) {
      if (stopped) {
        return false;
      }
      Instant now = clock.instant();
      OffsetDateTime nowTime = OffsetDateTime.ofInstant(now, ZoneOffset.UTC);
      try {
        V1Lease lease;
        try {
          lease = api.readNamespacedLease(name, namespace).execute();
        } catch (ApiException e) {
          if (e.getCode() != 404) {
            throw e;
          }
          V1Lease created =
              new V1Lease()
                  .metadata(new V1ObjectMeta().name(name).namespace(namespace))
                  .spec(
                      new V1LeaseSpec()
                          .holderIdentity(identity)
                          .leaseDurationSeconds(seconds(timing.leaseDuration()))
                          .acquireTime(nowTime)
                          .renewTime(nowTime)
                          .leaseTransitions(0));
          created = api.createNamespacedLease(namespace, created).execute();
          observe(created.getSpec(), now);
          return succeeded(now);
        }
        V1LeaseSpec spec = lease.getSpec() == null ? new V1LeaseSpec() : lease.getSpec();
        if (!Objects.equals(spec, observed)) {
          observe(spec, now);
        }
        String holder = spec.getHolderIdentity();
        boolean mine = identity.equals(holder);
        boolean held = holder != null && !holder.isEmpty();
        Duration heldFor =
            spec.getLeaseDurationSeconds() == null
                ? timing.leaseDuration()
                : Duration.ofSeconds(spec.getLeaseDurationSeconds());
        if (held && !mine && observedTime.plus(heldFor).isAfter(now)) {
          return failed(now);
        }
        int transitions = spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
        V1LeaseSpec next =
            new V1LeaseSpec()
                .holderIdentity(identity)
                .leaseDurationSeconds(seconds(timing.leaseDuration()))
                .acquireTime(
                    mine && spec.getAcquireTime() != null ? spec.getAcquireTime() : nowTime)
                .renewTime(nowTime)
                .leaseTransitions(mine ? transitions : transitions + 1);
        lease.setSpec(next);
        V1Lease updated = api.replaceNamespacedLease(name, namespace, lease).execute();
        observe(updated.getSpec(), now);
        return succeeded(now);
      } catch (ApiException e) {
        log.atInfo()
            .setMessage("lease {}/{}: attempt failed: HTTP {} {}")
            .addArgument(namespace)
            .addArgument(name)
            .addArgument(e.getCode())
            .addArgument(e.getResponseBody() == null ? e.getMessage() : e.getResponseBody())
            .log();
        return failed(now);
      }
    }
  }

  private void observe(V1LeaseSpec spec, Instant now) {
    observed = spec;
    observedTime = now;
  }

  private boolean succeeded(Instant now) {
    leading = true;
    lastRenew = now;
    return true;
  }

  private boolean failed(Instant now) {
    if (leading && lastRenew != null && !lastRenew.plus(timing.renewDeadline()).isAfter(now)) {
      leading = false;
    }
    return false;
  }

  /**
   * Gives the lease up when this candidate holds it (holder cleared, duration 1 s), so that another
   * candidate can take it at once.
   */
  public void release() {
    synchronized (lock) {
      if (!leading) {
        return;
      }
      leading = false;
      try {
        V1Lease lease = api.readNamespacedLease(name, namespace).execute();
        if (lease.getSpec() == null || !identity.equals(lease.getSpec().getHolderIdentity())) {
          return;
        }
        OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
        lease
            .getSpec()
            .holderIdentity(null)
            .leaseDurationSeconds(1)
            .renewTime(now)
            .acquireTime(now);
        api.replaceNamespacedLease(name, namespace, lease).execute();
      } catch (ApiException e) {
        log.atWarn()
            .setMessage("lease {}/{}: cannot release: HTTP {}")
            .addArgument(namespace)
            .addArgument(name)
            .addArgument(e.getCode())
            .log();
      }
    }
  }

  /**
   * Starts the election loop on the executor: an attempt every {@code retryPeriod}; {@code
   * onStartedLeading} runs (on the executor) when this candidate becomes leader, {@code
   * onStoppedLeading} when it loses the lease (renewals failed for {@code renewDeadline}); the loop
   * ends after a loss. Call at most once.
   */
  public void run(Runnable onStartedLeading, Runnable onStoppedLeading) {
    synchronized (lock) {
      if (task != null || stopped) {
        throw new IllegalStateException("the election loop was already started");
      }
      boolean[] wasLeading = {false};
      task =
          executor.scheduleWithFixedDelay(
              () -> {
                tryAcquireOrRenew();
                boolean now = isLeader();
                if (now && !wasLeading[0]) {
                  wasLeading[0] = true;
                  log.atInfo()
                      .setMessage("lease {}/{}: {} became the leader")
                      .addArgument(namespace)
                      .addArgument(name)
                      .addArgument(identity)
                      .log();
                  onStartedLeading.run();
                } else if (!now && wasLeading[0]) {
                  wasLeading[0] = false;
                  log.atWarn()
                      .setMessage("lease {}/{}: {} lost the lease")
                      .addArgument(namespace)
                      .addArgument(name)
                      .addArgument(identity)
                      .log();
                  cancel();
                  onStoppedLeading.run();
                }
              },
              0,
              timing.retryPeriod().toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  private void cancel() {
    synchronized (lock) {
      stopped = true;
      if (task != null) {
        task.cancel(false);
      }
    }
  }

  /** Stops the loop and releases the lease if held. */
  @Override
  public void close() {
    cancel();
    release();
  }

  private static int seconds(Duration d) {
    return (int) Math.max(1, d.toSeconds());
  }
}
