package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FrameworkHandle;
import org.junit.jupiter.api.Test;

/** The feature gates of the context reach plugins through {@link FrameworkHandle}. */
final class FrameworkFeatureGatesTest {
  private static Framework framework(FrameworkContext ctx) {
    return Framework.create(basePlugins().profile(), 0, Fake.registry(queueSort(), binder()), ctx);
  }

  @Test
  void theHandleReturnsTheGatesOfTheContext() {
    FeatureGates gates = FeatureGates.parse("DynamicResourceAllocation=true");
    FrameworkContext base = Fixtures.context();
    FrameworkContext ctx =
        new FrameworkContext(
            base.client(),
            base.eventRecorder(),
            base.clock(),
            base.parallelizer(),
            base.nominator(),
            base.snapshot(),
            base.waitingPods(),
            base.activator(),
            SchedulerMetrics.NOOP,
            gates);

    try (Framework f = framework(ctx)) {
      FrameworkHandle handle = f;
      assertThat(handle.featureGates()).isSameAs(gates);
      assertThat(handle.featureGates().enabled(FeatureGates.DYNAMIC_RESOURCE_ALLOCATION)).isTrue();
    }
  }

  @Test
  void withoutGatesTheDefaultsApply() {
    try (Framework f = framework(Fixtures.context())) {
      assertThat(f.featureGates()).isSameAs(FeatureGates.defaults());
    }
  }
}
