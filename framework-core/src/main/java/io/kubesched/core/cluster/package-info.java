/**
 * The {@link io.kubesched.core.cluster.Cluster} port through which the engine talks to the outside
 * world (node and pod events in; binding, pod status patches, pod deletion and events out), and
 * {@link io.kubesched.core.cluster.InMemoryCluster}, the implementation used by the simulator and
 * by tests.
 */
package io.kubesched.core.cluster;
