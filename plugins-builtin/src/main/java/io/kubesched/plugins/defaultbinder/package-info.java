/** The {@code DefaultBinder} plugin (extension point: Bind). */
package io.kubesched.plugins.defaultbinder;
