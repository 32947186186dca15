/**
 * The contracts of kubesched, the Kubernetes Scheduling Framework for Java: the {@link
 * io.kubesched.framework.Plugin} extension points with kube-scheduler's semantics, {@link
 * io.kubesched.framework.Status}, {@link io.kubesched.framework.CycleState}, the precomputed {@link
 * io.kubesched.framework.PodInfo} and {@link io.kubesched.framework.NodeInfo}, and the {@link
 * io.kubesched.framework.PluginProvider} service-provider interface.
 *
 * <p>Plugin modules depend on this package only.
 */
@NullMarked
package io.kubesched.framework;

import org.jspecify.annotations.NullMarked;
