package io.kubesched.plugins.defaultpreemption;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Provides {@link DefaultPreemption}. Each plugin instance draws its dry-run offsets from its own
 * random source seeded with 0, so that simulations are repeatable, and reports the preemption
 * metrics to the handle's {@link FrameworkHandle#preemptionObserver()}.
 */
public final class DefaultPreemptionProvider implements PluginProvider<DefaultPreemptionArgs> {
  /** Creates the provider; ServiceLoader needs a public no-argument constructor. */
  public DefaultPreemptionProvider() {}

  @Override
  public String name() {
    return DefaultPreemption.NAME;
  }

  @Override
  public Class<DefaultPreemptionArgs> argsType() {
    return DefaultPreemptionArgs.class;
  }

  @Override
  public DefaultPreemptionArgs defaultArgs() {
    return DefaultPreemptionArgs.defaults();
  }

  @Override
  public Class<? extends Plugin> pluginType() {
    return DefaultPreemption.class;
  }

  /**
   * Builds the plugin.
   *
   * @throws IllegalArgumentException listing every problem when the arguments are invalid
   */
  @Override
  public Plugin create(DefaultPreemptionArgs args, FrameworkHandle handle) {
    List<FieldError> errors = args.validate("");
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(
          errors.stream().map(FieldError::toString).collect(Collectors.joining(", ")));
    }
    return new DefaultPreemption(args, handle, new Random(0), handle.preemptionObserver());
  }
}
