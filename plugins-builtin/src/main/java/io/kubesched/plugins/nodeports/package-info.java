/**
 * The {@code NodePorts} plugin (extension points: PreFilter, Filter, EnqueueExtensions); reason
 * {@code node(s) didn't have free ports for the requested pod ports}.
 */
package io.kubesched.plugins.nodeports;
