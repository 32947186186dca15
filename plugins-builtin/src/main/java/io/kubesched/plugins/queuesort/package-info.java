/** The {@code PrioritySort} queue-sort plugin (extension point: QueueSort). */
package io.kubesched.plugins.queuesort;
