/**
 * The {@code NodeResourcesFit} plugin ({@link io.kubesched.plugins.noderesources.Fit}: PreFilter,
 * Filter, PreScore, Score, EnqueueExtensions; reasons {@code Too many pods} and {@code Insufficient
 * <resource>}) with its scoring strategies, and the {@code NodeResourcesBalancedAllocation} plugin
 * ({@link io.kubesched.plugins.noderesources.BalancedAllocation}: PreScore, Score), with their
 * args.
 */
package io.kubesched.plugins.noderesources;
