package io.kubesched.core.runtime;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.ClusterClient;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.Parallelizer;
import io.kubesched.framework.PodNominator;
import java.time.Clock;
import java.util.Collection;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What the scheduler gives every {@link Framework} it builds: the services a {@link
 * io.kubesched.framework.FrameworkHandle} exposes to plugins, shared by all profiles.
 *
 * @param client the cluster client
 * @param eventRecorder the event recorder
 * @param clock the clock (a fake one in tests and simulations)
 * @param parallelizer the worker pool for Filter and Score
 * @param nominator the nominated pods
 * @param snapshot returns the snapshot of the current cycle
 * @param waitingPods the pods waiting at Permit, shared by all profiles
 * @param activator moves pods to the active queue
 * @param metrics the metrics sink
 * @param featureGates the feature gates plugins read ({@link FeatureGates#defaults()} when null)
 */
public record FrameworkContext(
    ClusterClient client,
    EventRecorder eventRecorder,
    Clock clock,
    Parallelizer parallelizer,
    PodNominator nominator,
    Supplier<NodeInfoLister> snapshot,
    WaitingPods waitingPods,
    Consumer<Collection<V1Pod>> activator,
    SchedulerMetrics metrics,
    FeatureGates featureGates) {

  /** Checks the mandatory components and defaults the optional ones. */
  public FrameworkContext {
    Objects.requireNonNull(clock, "clock must not be null");
    Objects.requireNonNull(parallelizer, "parallelizer must not be null");
    Objects.requireNonNull(waitingPods, "waitingPods must not be null");
    nominator = nominator == null ? node -> java.util.List.of() : nominator;
    activator = activator == null ? pods -> {} : activator;
    metrics = metrics == null ? SchedulerMetrics.NOOP : metrics;
    featureGates = featureGates == null ? FeatureGates.defaults() : featureGates;
  }

  /** Returns this context with {@code recorder} as its event recorder (one per profile). */
  public FrameworkContext withEventRecorder(EventRecorder recorder) {
    return new FrameworkContext(
        client,
        recorder,
        clock,
        parallelizer,
        nominator,
        snapshot,
        waitingPods,
        activator,
        metrics,
        featureGates);
  }

  /** The context with the default feature gates. */
  public FrameworkContext(
      ClusterClient client,
      EventRecorder eventRecorder,
      Clock clock,
      Parallelizer parallelizer,
      PodNominator nominator,
      Supplier<NodeInfoLister> snapshot,
      WaitingPods waitingPods,
      Consumer<Collection<V1Pod>> activator,
      SchedulerMetrics metrics) {
    this(
        client,
        eventRecorder,
        clock,
        parallelizer,
        nominator,
        snapshot,
        waitingPods,
        activator,
        metrics,
        FeatureGates.defaults());
  }
}
