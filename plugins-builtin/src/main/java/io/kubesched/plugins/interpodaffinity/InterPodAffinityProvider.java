package io.kubesched.plugins.interpodaffinity;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import java.util.List;

/** Provides {@link InterPodAffinity} with {@link InterPodAffinityArgs}. */
public final class InterPodAffinityProvider implements PluginProvider<InterPodAffinityArgs> {
  /** Creates the provider. */
  public InterPodAffinityProvider() {}

  @Override
  public String name() {
    return InterPodAffinity.NAME;
  }

  @Override
  public Class<InterPodAffinityArgs> argsType() {
    return InterPodAffinityArgs.class;
  }

  @Override
  public InterPodAffinityArgs defaultArgs() {
    return InterPodAffinityArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return InterPodAffinity.class;
  }

  @Override
  public Plugin create(InterPodAffinityArgs args, FrameworkHandle handle) {
    List<FieldError> errors = args.validate("args");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(errors.toString());
    }
    return new InterPodAffinity(args, handle);
  }
}
