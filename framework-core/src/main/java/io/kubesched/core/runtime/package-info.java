/**
 * The framework runtime: builds the plugins of each profile ({@link
 * io.kubesched.core.runtime.Framework}), runs every extension point with kube-scheduler's status
 * semantics, finds the node for a pod ({@link io.kubesched.core.runtime.SchedulingAlgorithm}),
 * reports why none fits ({@link io.kubesched.core.runtime.Diagnosis}, {@link
 * io.kubesched.core.runtime.FitError}), holds pods waiting at Permit ({@link
 * io.kubesched.core.runtime.WaitingPods}) and spreads Filter and Score over workers ({@link
 * io.kubesched.core.runtime.ExecutorParallelizer}). Plugins are found through {@link
 * io.kubesched.core.runtime.PluginRegistry}.
 */
package io.kubesched.core.runtime;
