/**
 * The {@code InterPodAffinity} plugin: pod affinity and anti-affinity by topology domain
 * (kube-scheduler's {@code interpodaffinity}).
 *
 * <p>Extension points: PreFilter (with AddPod/RemovePod), Filter, PreScore, Score (with
 * NormalizeScore) and EnqueueExtensions. Filter reasons: {@value
 * io.kubesched.plugins.interpodaffinity.InterPodAffinity#REASON_AFFINITY_RULES_NOT_MATCH}, {@value
 * io.kubesched.plugins.interpodaffinity.InterPodAffinity#REASON_ANTI_AFFINITY_RULES_NOT_MATCH}
 * and {@value
 * io.kubesched.plugins.interpodaffinity.InterPodAffinity#REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH}.
 */
package io.kubesched.plugins.interpodaffinity;
