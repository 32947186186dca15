package io.kubesched.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterProperty;

/**
 * Invariants of the whole engine over random clusters, pods and event sequences (see {@link
 * Scenario}), checked by the independent {@link Checker} after every run.
 *
 * <p>The number of tries is jqwik's {@code jqwik.tries.default} (set in {@code
 * junit-platform.properties}, raised by the {@code properties} Maven profile); the property also
 * fails when fewer scheduling decisions than {@code -Dinvariants.minDecisions} (default 100,000)
 * were made, so that a smaller generator cannot silently weaken the run. Every run prints its seed
 * and how to replay it ({@link ReplayableSeed}: {@code -Dinvariants.seed=N}).
 */
class EngineInvariantPropertiesTest {
  private final ScenarioRunner runner = new ScenarioRunner();
  private final AtomicLong decisions = new AtomicLong();
  private final AtomicLong scenarios = new AtomicLong();

  @Property(shrinking = net.jqwik.api.ShrinkingMode.BOUNDED)
  @AddLifecycleHook(ReplayableSeed.class)
  void everyRunKeepsTheInvariants(@ForAll("scenarios") Scenario scenario, @ForAll long seed) {
    ScenarioRunner.Outcome o = runner.run(scenario, seed);
    long d = decisions.addAndGet(o.decisions());
    long n = scenarios.incrementAndGet();
    if (n % 500 == 0) {
      System.out.printf("engine invariants: %,d scenarios, %,d decisions so far%n", n, d);
    }
    assertThat(o.violations()).as("violations of %s", scenario).isEmpty();
  }

  @Provide
  Arbitrary<Scenario> scenarios() {
    return Scenarios.scenarios();
  }

  @AfterProperty
  void enoughDecisions() {
    long min = Long.getLong("invariants.minDecisions", 100_000L);
    System.out.printf(
        "engine invariants: %,d scenarios, %,d scheduling decisions%n",
        scenarios.get(), decisions.get());
    assertThat(decisions.get()).as("scheduling decisions checked").isGreaterThanOrEqualTo(min);
  }
}
