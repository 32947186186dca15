package io.kubesched.framework;

/**
 * A preferred pod (anti-)affinity term with its weight.
 *
 * @param term the term
 * @param weight the weight, 1 to 100
 */
public record WeightedAffinityTerm(AffinityTerm term, int weight) {}
