/**
 * The DynamicResources plugin (DRA, {@code resource.k8s.io/v1}): kube's structured-parameters
 * allocator and CEL device selectors.
 */
package io.kubesched.plugins.dynamicresources;
