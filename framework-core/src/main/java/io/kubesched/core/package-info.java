/**
 * The scheduling engine's entry point: {@link io.kubesched.core.Scheduler} wires a {@link
 * io.kubesched.core.cluster.Cluster} to the cache, the scheduling queue and one {@link
 * io.kubesched.core.runtime.Framework} per profile, and runs kube-scheduler's scheduling and
 * binding cycles, in real time or on {@link io.kubesched.core.time.SimulatedTime}.
 */
package io.kubesched.core;
