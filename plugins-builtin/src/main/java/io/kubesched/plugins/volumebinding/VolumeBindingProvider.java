package io.kubesched.plugins.volumebinding;

import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;

/** Provides {@link VolumeBinding} with {@link VolumeBindingArgs}. */
public final class VolumeBindingProvider implements PluginProvider<VolumeBindingArgs> {
  /** Creates the provider. */
  public VolumeBindingProvider() {}

  @Override
  public String name() {
    return VolumeBinding.NAME;
  }

  @Override
  public Class<VolumeBindingArgs> argsType() {
    return VolumeBindingArgs.class;
  }

  @Override
  public VolumeBindingArgs defaultArgs() {
    return VolumeBindingArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return VolumeBinding.class;
  }

  @Override
  public Plugin create(VolumeBindingArgs args, FrameworkHandle handle) {
    boolean scoring =
        handle.featureGates().enabled(io.kubesched.framework.FeatureGates.STORAGE_CAPACITY_SCORING);
    return new VolumeBinding(handle.client(), args, scoring);
  }
}
