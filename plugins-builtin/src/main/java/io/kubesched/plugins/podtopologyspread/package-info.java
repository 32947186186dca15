/**
 * The {@code PodTopologySpread} plugin: spreads pods over topology domains (kube-scheduler's
 * {@code podtopologyspread}).
 *
 * <p>Extension points: PreFilter (with AddPod/RemovePod), Filter, PreScore, Score (with
 * NormalizeScore) and EnqueueExtensions. Filter reasons: {@value
 * io.kubesched.plugins.podtopologyspread.PodTopologySpread#REASON_CONSTRAINTS_NOT_MATCH} and
 * {@value io.kubesched.plugins.podtopologyspread.PodTopologySpread#REASON_NODE_LABEL_NOT_MATCH}.
 */
package io.kubesched.plugins.podtopologyspread;
