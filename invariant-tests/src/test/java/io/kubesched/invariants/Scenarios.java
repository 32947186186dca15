package io.kubesched.invariants;

import io.kubesched.invariants.Scenario.AddNode;
import io.kubesched.invariants.Scenario.AddPods;
import io.kubesched.invariants.Scenario.App;
import io.kubesched.invariants.Scenario.DeletePod;
import io.kubesched.invariants.Scenario.FailBinds;
import io.kubesched.invariants.Scenario.GangSpec;
import io.kubesched.invariants.Scenario.NodeSpec;
import io.kubesched.invariants.Scenario.PodSpec;
import io.kubesched.invariants.Scenario.RemoveNode;
import io.kubesched.invariants.Scenario.Step;
import io.kubesched.invariants.Scenario.UpdateNode;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik arbitraries for {@link Scenario}s. */
final class Scenarios {
  private Scenarios() {}

  static Arbitrary<NodeSpec> node() {
    Arbitrary<String> zone = Arbitraries.of("z0", "z1", "z2").injectNull(0.1);
    Arbitrary<String> tier = Arbitraries.of("a", "b");
    Arbitrary<Integer> cpu = Arbitraries.of(1000, 2000, 4000, 8000);
    Arbitrary<Integer> mem = Arbitraries.of(1024, 2048, 8192);
    Arbitrary<Integer> pods = Arbitraries.of(3, 8, 32);
    Arbitrary<Integer> gpus =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, Arbitraries.just(0)),
            net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(1, 2)));
    Arbitrary<Integer> taint =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(6, Arbitraries.just(0)),
            net.jqwik.api.Tuple.of(2, Arbitraries.just(1)),
            net.jqwik.api.Tuple.of(1, Arbitraries.just(2)),
            net.jqwik.api.Tuple.of(1, Arbitraries.just(3)));
    Arbitrary<Boolean> unschedulable = Arbitraries.of(true, false, false, false, false, false);
    return Combinators.combine(zone, tier, cpu, mem, pods, gpus, taint, unschedulable)
        .as(NodeSpec::new);
  }

  static Arbitrary<PodSpec> pod(int groups) {
    Arbitrary<App> app =
        groups > 0
            ? Arbitraries.of(App.values())
            : Arbitraries.of(App.values()).filter(a -> a != App.GANG);
    Arbitrary<Integer> cpu = Arbitraries.of(0, 100, 250, 500, 1000, 2000, 3000);
    Arbitrary<Integer> mem = Arbitraries.of(0, 64, 256, 512, 1024);
    Arbitrary<Integer> gpus = Arbitraries.of(0, 0, 0, 0, 1);
    Arbitrary<Integer> priority = Arbitraries.of(0, 0, 10, 100);
    Arbitrary<String> tier = Arbitraries.of("a", "b").injectNull(0.8);
    Arbitrary<String> zone = Arbitraries.of("z0", "z1", "z2").injectNull(0.8);
    Arbitrary<Boolean> tolerates = Arbitraries.of(true, false, false);
    Arbitrary<Integer> port = Arbitraries.of(0, 0, 0, 0, 8080, 9090);
    Arbitrary<Integer> group = Arbitraries.integers().between(0, Math.max(0, groups - 1));
    return Combinators.combine(app, cpu, mem, gpus, priority, tier, zone, tolerates)
        .flatAs(
            (a, c, m, g, p, t, z, tol) ->
                Combinators.combine(port, group)
                    .as(
                        (hp, grp) -> {
                          // Spreading pods of one app share their node constraints, so that the
                          // final-state skew check is the one the scheduler enforced.
                          boolean spread = a == App.SPREAD_ZONE || a == App.SPREAD_HOST;
                          return new PodSpec(
                              a,
                              c,
                              m,
                              g,
                              p,
                              spread ? null : t,
                              spread ? null : z,
                              tol,
                              hp,
                              a == App.GANG ? grp : -1);
                        }));
  }

  static Arbitrary<Step> step(int groups) {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, pod(groups).list().ofMinSize(1).ofMaxSize(40).map(AddPods::new)),
        net.jqwik.api.Tuple.of(1, node().map(AddNode::new)),
        net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 50).map(RemoveNode::new)),
        net.jqwik.api.Tuple.of(
            2,
            Combinators.combine(Arbitraries.integers().between(0, 50), Arbitraries.of(true, false))
                .as(UpdateNode::new)),
        net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0, 500).map(DeletePod::new)),
        net.jqwik.api.Tuple.of(
            2,
            Combinators.combine(Arbitraries.integers().between(1, 4), Arbitraries.of(true, false))
                .as(FailBinds::new)));
  }

  /** Scenarios: 1-12 nodes, 0-3 gangs (Coscheduling profile when any), 1-10 steps. */
  static Arbitrary<Scenario> scenarios() {
    Arbitrary<Integer> groupCount = Arbitraries.of(0, 0, 1, 2, 3);
    return groupCount.flatMap(
        groups ->
            Combinators.combine(
                    node().list().ofMinSize(1).ofMaxSize(16),
                    Arbitraries.integers().between(1, 4).map(GangSpec::new).list().ofSize(groups),
                    step(groups).list().ofMinSize(1).ofMaxSize(16))
                .as(
                    (List<NodeSpec> n, List<GangSpec> g, List<Step> s) ->
                        new Scenario(groups > 0, n, g, s)));
  }
}
