package io.kubesched.framework;

/**
 * A preferred node affinity term with its weight.
 *
 * @param term the compiled term
 * @param weight the weight, 1 to 100
 */
public record WeightedNodeSelectorTerm(NodeSelector.Term term, int weight) {}
