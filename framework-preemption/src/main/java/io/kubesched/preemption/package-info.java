/**
 * Preemption for PostFilter plugins (kube-scheduler's {@code framework/preemption}): the {@link
 * io.kubesched.preemption.Evaluator} finds nodes where evicting lower-priority pods would let a pod
 * fit, picks one, evicts the victims and nominates the node. The policy parts (eligibility, how
 * many nodes to try, which pods to evict on a node) come from a {@link
 * io.kubesched.preemption.PreemptionInterface}, implemented by DefaultPreemption and by out-of-tree
 * preemption plugins.
 *
 * <p>The module depends on {@code framework-api} only: everything it needs from the engine (the
 * extenders, the preemption metrics, the filter runs with nominated pods) comes through {@link
 * io.kubesched.framework.FrameworkHandle}, so it works with any handle.
 */
package io.kubesched.preemption;
