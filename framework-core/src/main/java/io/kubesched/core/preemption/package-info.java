/**
 * Preemption for PostFilter plugins (kube-scheduler's {@code framework/preemption}): the {@link
 * io.kubesched.core.preemption.Evaluator} finds nodes where evicting lower-priority pods would let
 * a pod fit, picks one, evicts the victims and nominates the node. The policy parts (eligibility,
 * how many nodes to try, which pods to evict on a node) come from a {@link
 * io.kubesched.core.preemption.PreemptionInterface}, implemented by DefaultPreemption and by
 * out-of-tree preemption plugins.
 *
 * <p>Coded against {@code framework-api} only, so that it works with any {@link
 * io.kubesched.framework.FrameworkHandle}.
 */
package io.kubesched.core.preemption;
