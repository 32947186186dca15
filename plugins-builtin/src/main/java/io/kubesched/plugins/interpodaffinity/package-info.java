/**
 * The {@code InterPodAffinity} plugin: pod affinity and anti-affinity by topology domain
 * (kube-scheduler's {@code interpodaffinity}).
 *
 * <p>Extension points: PreFilter (with AddPod/RemovePod), Filter, PreScore, Score (with
 * NormalizeScore) and EnqueueExtensions. Filter reasons: {@code node(s) didn't match pod affinity
 * rules}, {@code node(s) didn't match pod anti-affinity rules} and {@code node(s) didn't satisfy
 * existing pods anti-affinity rules} (the {@code REASON_*} constants of {@link
 * io.kubesched.plugins.interpodaffinity.InterPodAffinity}).
 */
package io.kubesched.plugins.interpodaffinity;
