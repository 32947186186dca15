package io.kubesched.plugins.noderesources;

/**
 * Why a pod does not fit a node for one resource (kube's {@code InsufficientResource}).
 *
 * @param resourceName the resource, e.g. {@code cpu} or {@code pods}
 * @param reason the Filter reason, e.g. {@code Insufficient cpu} or {@code Too many pods}
 * @param requested what the pod requests (1 for the pod count)
 * @param used what the node's pods already request
 * @param capacity the node's allocatable amount
 */
public record InsufficientResource(
    String resourceName, String reason, long requested, long used, long capacity) {}
