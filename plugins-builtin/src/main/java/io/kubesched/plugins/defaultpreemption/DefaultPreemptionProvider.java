package io.kubesched.plugins.defaultpreemption;

import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.core.preemption.PreemptionObserver;
import io.kubesched.core.runtime.Framework;
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
 * metrics to the scheduler's metrics when the handle is the runtime's {@link Framework}.
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
    PreemptionObserver observer = PreemptionObserver.none();
    if (handle instanceof Framework f) {
      SchedulerMetrics metrics = f.metrics();
      observer =
          new PreemptionObserver() {
            @Override
            public void attempt() {
              metrics.preemptionAttempt();
            }

            @Override
            public void victims(int count) {
              metrics.preemptionVictims(count);
            }
          };
    }
    return new DefaultPreemption(args, handle, new Random(0), observer);
  }
}
