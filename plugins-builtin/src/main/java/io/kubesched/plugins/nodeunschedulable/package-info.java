/**
 * The {@code NodeUnschedulable} plugin (extension points: Filter, EnqueueExtensions); reason {@code
 * node(s) were unschedulable}.
 */
package io.kubesched.plugins.nodeunschedulable;
