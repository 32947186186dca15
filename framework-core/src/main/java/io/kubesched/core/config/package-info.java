/**
 * The scheduler configuration: the {@code kubescheduler.config.k8s.io/v1} {@code
 * KubeSchedulerConfiguration} as value records ({@link
 * io.kubesched.core.config.KubeSchedulerConfiguration}, {@link io.kubesched.core.config.Profile},
 * {@link io.kubesched.core.config.Plugins}, ...), kube-scheduler v1.33's {@link
 * io.kubesched.core.config.DefaultPlugins}, and the {@link
 * io.kubesched.core.config.ConfigurationLoader} that reads YAML or JSON strictly, applies kube's
 * defaults, merges each profile's plugins into the defaults, decodes every plugin's args with
 * {@link io.kubesched.core.config.ArgsCodec} and validates the whole, reporting every problem with
 * its field path in one {@link io.kubesched.core.config.InvalidConfigurationException}.
 */
package io.kubesched.core.config;
