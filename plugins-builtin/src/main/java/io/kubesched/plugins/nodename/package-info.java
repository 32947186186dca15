/**
 * The {@code NodeName} plugin (extension points: Filter, EnqueueExtensions); reason {@code node(s)
 * didn't match the requested node name}.
 */
package io.kubesched.plugins.nodename;
