package io.kubesched.framework;

/**
 * A node's score.
 *
 * @param name the node name
 * @param score the score
 */
public record NodeScore(String name, long score) {}
