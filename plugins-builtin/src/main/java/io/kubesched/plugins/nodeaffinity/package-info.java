/**
 * The {@code NodeAffinity} plugin (extension points: PreFilter, Filter, PreScore, Score,
 * NormalizeScore, EnqueueExtensions) and its {@code NodeAffinityArgs}; reasons {@code node(s)
 * didn't match Pod's node affinity/selector}, {@code node(s) didn't match scheduler-enforced node
 * affinity} and {@code pod affinity terms conflict}.
 */
package io.kubesched.plugins.nodeaffinity;
