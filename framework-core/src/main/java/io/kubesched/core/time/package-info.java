/**
 * Simulated time: {@link io.kubesched.core.time.SimulatedTime} gives a clock and a scheduled
 * executor that only move when the simulation advances them, so Permit timeouts, backoff and
 * periodic flushes run reproducibly without real waiting.
 */
package io.kubesched.core.time;
