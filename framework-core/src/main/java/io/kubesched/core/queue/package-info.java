/**
 * The scheduling queue (kube-scheduler's {@code backend/queue}): the active queue ordered by the
 * QueueSort plugin, the backoff queues, the unschedulable pods, in-flight event tracking, queueing
 * hints and the nominator.
 */
package io.kubesched.core.queue;
