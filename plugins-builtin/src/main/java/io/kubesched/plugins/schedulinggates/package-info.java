/**
 * The {@code SchedulingGates} plugin (extension points: PreEnqueue, EnqueueExtensions); reason
 * {@code waiting for scheduling gates: [g1 g2]}.
 */
package io.kubesched.plugins.schedulinggates;
