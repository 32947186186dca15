/**
 * The scheduler's cache of nodes and bound or assumed pods, and the per-cycle {@link
 * io.kubesched.core.cache.Snapshot} taken from it (kube-scheduler's {@code backend/cache}).
 */
package io.kubesched.core.cache;
