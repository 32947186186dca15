package io.kubesched.invariants;

import java.security.SecureRandom;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

/**
 * Gives a property a seed known before it runs and prints it, on every run (not only on failure),
 * so that any run can be replayed: the seed is {@code -Dinvariants.seed} when given, otherwise a
 * fresh random one. jqwik derives every generated value of every try from it, so the same seed with
 * the same number of tries ({@code jqwik.tries.default}: jqwik sizes grow with the tries) generates
 * the same scenarios and per-scenario seeds again.
 */
public final class ReplayableSeed implements AroundPropertyHook {
  /** The system property that replays a seed. */
  static final String SEED_PROPERTY = "invariants.seed";

  @Override
  public PropertyExecutionResult aroundProperty(
      PropertyLifecycleContext context, PropertyExecutor property) {
    String given = System.getProperty(SEED_PROPERTY, "").strip();
    String seed = given.isEmpty() ? Long.toString(new SecureRandom().nextLong()) : given;
    context.attributes().setSeed(seed);
    String tries = System.getProperty("jqwik.tries.default");
    String replay =
        "-D"
            + SEED_PROPERTY
            + "="
            + seed
            + (tries == null
                ? " (tries: junit-platform.properties' default)"
                : " -Djqwik.tries.default=" + tries);
    System.out.printf(
        "%s: seed %s (%s); replay: %s%n",
        context.label(), seed, given.isEmpty() ? "random" : "given", replay);
    PropertyExecutionResult result = property.execute();
    System.out.printf(
        "%s: seed %s: %s after %d tries; replay: %s%n",
        context.label(), seed, result.status(), result.countTries(), replay);
    return result;
  }
}
