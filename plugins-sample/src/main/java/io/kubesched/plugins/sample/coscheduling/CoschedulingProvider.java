package io.kubesched.plugins.sample.coscheduling;

import io.kubesched.framework.CustomResource;
import io.kubesched.framework.CustomResourceUser;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import java.util.List;

/**
 * Registers {@link Coscheduling} with the plugin registry and declares the custom resource it
 * reads: scheduler-plugins' {@code podgroups.scheduling.x-k8s.io/v1alpha1}.
 */
public final class CoschedulingProvider
    implements PluginProvider<CoschedulingArgs>, CustomResourceUser {
  /** scheduler-plugins' PodGroup resource. */
  public static final CustomResource POD_GROUPS =
      new CustomResource("scheduling.x-k8s.io", "v1alpha1", "podgroups", PodGroup.KIND, true);

  @Override
  public List<CustomResource> customResources() {
    return List.of(POD_GROUPS);
  }

  @Override
  public String name() {
    return Coscheduling.NAME;
  }

  @Override
  public Class<CoschedulingArgs> argsType() {
    return CoschedulingArgs.class;
  }

  @Override
  public CoschedulingArgs defaultArgs() {
    return CoschedulingArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return Coscheduling.class;
  }

  @Override
  public Plugin create(CoschedulingArgs args, FrameworkHandle handle) {
    return new Coscheduling(args, handle);
  }
}
