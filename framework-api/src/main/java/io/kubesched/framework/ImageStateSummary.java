package io.kubesched.framework;

/**
 * What the scheduler knows of a container image on a node.
 *
 * @param size the image size in bytes
 * @param numNodes how many nodes of the cluster hold the image
 */
public record ImageStateSummary(long size, int numNodes) {}
