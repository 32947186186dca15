package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.node;
import static io.kubesched.core.runtime.Fixtures.nodes;
import static io.kubesched.core.runtime.Fixtures.pod;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.PluginRef;
import io.kubesched.framework.CycleBoundFilter;
import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Filter and Score of plugins with the {@link CycleBoundFilter} / {@link CycleBoundScore} face:
 * bound once per cycle, bound again after the state changes, called unbound when binding throws,
 * and answering as the unbound calls do.
 */
final class FrameworkCycleBoundTest {
  private static final StateKey<Limit> KEY = StateKey.of("PreFilterBound", Limit.class);

  /** The largest node number that passes, and the score multiplier. */
  record Limit(long max) implements StateData {
    @Override
    public Limit copy() {
      return this;
    }
  }

  /**
   * Passes nodes {@code n<=max}, scores {@code number * max}; journals each bind and each call
   * (bound or not).
   */
  static final class Bound implements CycleBoundFilter, CycleBoundScore {
    final List<String> journal = Collections.synchronizedList(new ArrayList<>());
    final boolean bindThrows;

    Bound(boolean bindThrows) {
      this.bindThrows = bindThrows;
    }

    @Override
    public String name() {
      return "B";
    }

    private static long number(NodeInfo node) {
      return Long.parseLong(node.name().substring(1));
    }

    private static Status check(Limit l, NodeInfo node) {
      return number(node) <= l.max() ? Status.success() : Status.unschedulable("too far");
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      journal.add("filter " + node.name());
      return check(state.get(KEY), node);
    }

    @Override
    public NodeCheck bindFilter(CycleState state, PodInfo pod) {
      journal.add("bindFilter");
      if (bindThrows) {
        throw new IllegalStateException("no bind");
      }
      Limit l = state.get(KEY);
      return node -> {
        journal.add("bound filter " + node.name());
        return check(l, node);
      };
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      journal.add("score " + node.name());
      return number(node) * state.get(KEY).max();
    }

    @Override
    public NodeScorer bindScore(CycleState state, PodInfo pod) {
      journal.add("bindScore");
      if (bindThrows) {
        throw new IllegalStateException("no bind");
      }
      Limit l = state.get(KEY);
      return node -> {
        journal.add("bound score " + node.name());
        return number(node) * l.max();
      };
    }
  }

  private static Framework filterFramework(Bound b) {
    return Framework.create(
        basePlugins().enable("filter", "B").profile(),
        0,
        Fake.registry(b, queueSort(), binder()),
        Fixtures.context());
  }

  private static Framework scoreFramework(Bound b) {
    return Framework.create(
        basePlugins().enableWeighted("score", PluginRef.of("B", 1)).profile(),
        0,
        Fake.registry(b, queueSort(), binder()),
        Fixtures.context());
  }

  static Stream<Arguments> filterCases() {
    return Stream.of(
        argumentSet(
            "bound once for the cycle's nodes",
            false,
            List.of(Status.success(), Status.unschedulable("too far").withPlugin("B")),
            List.of("bindFilter", "bound filter n1", "bound filter n3")),
        argumentSet(
            "a binding that throws leaves the plugin unbound, called per node",
            true,
            List.of(Status.success(), Status.unschedulable("too far").withPlugin("B")),
            List.of("bindFilter", "filter n1", "filter n3")));
  }

  @ParameterizedTest
  @MethodSource("filterCases")
  void filtersEachNodeWithTheCycleBinding(
      boolean bindThrows, List<Status> expected, List<String> calls) {
    Bound b = new Bound(bindThrows);
    Framework f = filterFramework(b);
    CycleState state = new CycleState();
    state.write(KEY, new Limit(2));
    PodInfo p = pod("p");

    List<Status> out =
        List.of(f.runFilterPlugins(state, p, node("n1")), f.runFilterPlugins(state, p, node("n3")));

    assertThat(out).isEqualTo(expected);
    assertThat(b.journal).isEqualTo(calls);
  }

  @Test
  void aWriteToTheStateBindsAgain() {
    Bound b = new Bound(false);
    Framework f = filterFramework(b);
    CycleState state = new CycleState();
    state.write(KEY, new Limit(2));
    PodInfo p = pod("p");

    Status before = f.runFilterPlugins(state, p, node("n3"));
    state.write(KEY, new Limit(3));
    Status after = f.runFilterPlugins(state, p, node("n3"));
    Status again = f.runFilterPlugins(state, p, node("n3"));

    assertThat(List.of(before, after, again))
        .isEqualTo(
            List.of(
                Status.unschedulable("too far").withPlugin("B"),
                Status.success(),
                Status.success()));
    assertThat(b.journal)
        .isEqualTo(
            List.of(
                "bindFilter",
                "bound filter n3",
                "bindFilter",
                "bound filter n3",
                "bound filter n3"));
  }

  @Test
  void anotherPodOrAClonedStateBindsAgain() {
    Bound b = new Bound(false);
    Framework f = filterFramework(b);
    CycleState state = new CycleState();
    state.write(KEY, new Limit(2));

    f.runFilterPlugins(state, pod("p"), node("n1"));
    f.runFilterPlugins(state, pod("q"), node("n1"));
    f.runFilterPlugins(state.clone(), pod("q"), node("n1"));

    assertThat(b.journal)
        .isEqualTo(
            List.of(
                "bindFilter",
                "bound filter n1",
                "bindFilter",
                "bound filter n1",
                "bindFilter",
                "bound filter n1"));
  }

  static Stream<Arguments> scoreCases() {
    return Stream.of(
        argumentSet(
            "bound once for the run",
            false,
            List.of("bindScore", "bound score n1", "bound score n2")),
        argumentSet(
            "a binding that throws leaves the plugin unbound, called per node",
            true,
            List.of("bindScore", "score n1", "score n2")));
  }

  @ParameterizedTest
  @MethodSource("scoreCases")
  void scoresEachNodeWithTheCycleBinding(boolean bindThrows, List<String> calls) {
    Bound b = new Bound(bindThrows);
    Framework f = scoreFramework(b);
    CycleState state = new CycleState();
    state.write(KEY, new Limit(10));

    Framework.ScoreOutcome out = f.runScorePlugins(state, pod("p"), nodes("n1", "n2"));

    assertThat(out)
        .isEqualTo(
            new Framework.ScoreOutcome(
                List.of(
                    new NodePluginScores("n1", Map.of("B", 10L), 10),
                    new NodePluginScores("n2", Map.of("B", 20L), 20)),
                Status.success()));
    assertThat(b.journal).isEqualTo(calls);
  }
}
