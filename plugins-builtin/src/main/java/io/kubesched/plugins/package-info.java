/**
 * kube-scheduler's default plugins, one package per plugin named after kube's folder, and {@link
 * io.kubesched.plugins.PluginNames} with every default plugin's name.
 */
package io.kubesched.plugins;
