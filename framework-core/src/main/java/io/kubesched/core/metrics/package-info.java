/**
 * The scheduler's metrics: the {@link io.kubesched.core.metrics.SchedulerMetrics} sink the
 * framework, queue and scheduler report to ({@link io.kubesched.core.metrics.SchedulerMetrics#NOOP}
 * ignores everything), {@link io.kubesched.core.metrics.PrometheusSchedulerMetrics} which publishes
 * kube-scheduler's metrics on the Prometheus Java client, and the inspectable {@link
 * io.kubesched.core.metrics.InMemoryMetrics} for tests.
 */
package io.kubesched.core.metrics;
