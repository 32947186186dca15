/**
 * The {@link io.kubesched.core.cluster.Cluster} port on a real Kubernetes API server through
 * client-java: informers, binding, status patches, events.
 */
package io.kubesched.core.kubernetes;
