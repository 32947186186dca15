package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.node;
import static io.kubesched.core.runtime.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PluginCallsTest {
  private final PluginCalls calls = new PluginCalls(SchedulerMetrics.NOOP);

  private static FilterPlugin filter(String name, Status result, RuntimeException thrown) {
    return new FilterPlugin() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
        if (thrown != null) {
          throw thrown;
        }
        return result;
      }
    };
  }

  @Test
  void aStatusCallReturnsThePluginsStatus() {
    Status rejected = Status.unschedulable("no");
    Status s =
        calls.status(
            "Filter",
            filter("F", rejected, null),
            new CycleState(),
            pod("p"),
            node("n"),
            FilterPlugin::filter);
    assertThat(s).isSameAs(rejected);
  }

  @Test
  void aNullStatusIsSuccess() {
    Status s =
        calls.status(
            "Filter", filter("F", null, null), null, pod("p"), node("n"), FilterPlugin::filter);
    assertThat(s.isSuccess()).isTrue();
  }

  @Test
  void aThrowBecomesAnErrorWithThePluginAndTheCause() {
    IllegalStateException boom = new IllegalStateException("boom");
    Status s =
        calls.status(
            "Filter", filter("F", null, boom), null, pod("p"), node("n"), FilterPlugin::filter);
    assertThat(s.code()).isEqualTo(Status.Code.ERROR);
    assertThat(s.plugin()).isEqualTo("F");
    assertThat(s.cause()).isSameAs(boom);
    assertThat(PluginCalls.errorMessage(s)).isEqualTo("boom");
  }

  @Test
  void aPermitThrowIsTheErrorWithoutTimeout() {
    PermitPlugin permit =
        new PermitPlugin() {
          @Override
          public String name() {
            return "P";
          }

          @Override
          public PermitResult permit(CycleState state, PodInfo pod, String nodeName) {
            throw new IllegalArgumentException("bad");
          }
        };
    PermitResult r =
        calls.run("Permit", permit, null, pod("p"), "n", PermitPlugin::permit, PluginCalls.PERMIT);
    assertThat(r.status().code()).isEqualTo(Status.Code.ERROR);
    assertThat(r.status().plugin()).isEqualTo("P");
    assertThat(r.timeout()).isEqualTo(Duration.ZERO);
  }

  @Test
  void aScoreIsStoredAndAThrowIsReported() {
    ScorePlugin scorer =
        new ScorePlugin() {
          @Override
          public String name() {
            return "S";
          }

          @Override
          public long score(CycleState state, PodInfo pod, NodeInfo node) {
            if (node.name().equals("bad")) {
              throw new IllegalStateException("cannot score");
            }
            return 42;
          }
        };
    long[] scores = new long[2];
    List<Status> thrown = new ArrayList<>();
    assertThat(calls.score(scorer, null, pod("p"), node("good"), scores, 0, thrown::add)).isTrue();
    assertThat(calls.score(scorer, null, pod("p"), node("bad"), scores, 1, thrown::add)).isFalse();
    assertThat(scores).containsExactly(42, 0);
    assertThat(thrown).singleElement().extracting(Status::plugin).isEqualTo("S");
  }

  @Test
  void wrapErrorPrefixesTheMessage() {
    Status s = PluginCalls.wrapError("running \"F\" filter plugin: ", Status.error("x"));
    assertThat(s).isEqualTo(Status.error("running \"F\" filter plugin: x"));
  }

  @Test
  void anErrorIsNotRethrown() {
    assertThatThrownBy(
            () ->
                calls.status(
                    "Filter",
                    filter("F", null, null),
                    null,
                    pod("p"),
                    node("n"),
                    (pl, st, p, n) -> {
                      throw new AssertionError("an Error is not a plugin failure");
                    }))
        .isInstanceOf(AssertionError.class);
  }
}
