/**
 * Kubernetes-style validation for configuration and plugin arguments: {@link
 * io.kubesched.framework.validation.FieldErrors} builds {@code field.Error} messages and {@link
 * io.kubesched.framework.validation.QualifiedNames} holds kube's name checks. The engine's
 * configuration validation and the plugins' {@code validate} methods (in-tree and out-of-tree)
 * share them.
 */
@NullMarked
package io.kubesched.framework.validation;

import org.jspecify.annotations.NullMarked;
