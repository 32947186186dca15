/**
 * DefaultPreemption: kube-scheduler's preemption plugin.
 *
 * <p>Extension points: PostFilter (evicts lower-priority pods so that an unschedulable pod fits on
 * a node, then nominates it) and PreEnqueue (holds a pod back while it is evicting victims).
 *
 * <p>Reasons: {@value io.kubesched.plugins.defaultpreemption.DefaultPreemption#REASON_NEVER},
 * {@value io.kubesched.plugins.defaultpreemption.DefaultPreemption#REASON_TERMINATING_VICTIM},
 * {@value io.kubesched.plugins.defaultpreemption.DefaultPreemption#REASON_NO_VICTIMS}, {@value
 * io.kubesched.plugins.defaultpreemption.DefaultPreemption#REASON_PREEMPTION_RUNNING}; failure
 * messages are prefixed with {@value
 * io.kubesched.plugins.defaultpreemption.DefaultPreemption#MESSAGE_PREFIX}.
 */
package io.kubesched.plugins.defaultpreemption;
