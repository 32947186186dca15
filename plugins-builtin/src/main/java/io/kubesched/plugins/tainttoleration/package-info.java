/**
 * The {@code TaintToleration} plugin (extension points: Filter, PreScore, Score, NormalizeScore,
 * EnqueueExtensions); reason {@code node(s) had untolerated taint {key: value}}.
 */
package io.kubesched.plugins.tainttoleration;
