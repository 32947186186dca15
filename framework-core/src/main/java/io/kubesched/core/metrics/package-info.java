/**
 * The scheduler's metrics: the {@link io.kubesched.core.metrics.SchedulerMetrics} sink the
 * framework, queue and scheduler report to, with a no-op and an in-memory implementation.
 */
package io.kubesched.core.metrics;
