package io.kubesched.preemption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubesched.framework.PodInfo;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The node choice of the {@link Evaluator} among candidates (kube's {@code
 * pickOneNodeForPreemption}), each criterion in turn.
 */
final class PreemptionCandidateChoiceTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static PodInfo victim(String name, int priority, Integer startSecond) {
    V1PodStatus status = new V1PodStatus();
    if (startSecond != null) {
      status.startTime(
          OffsetDateTime.ofInstant(Instant.ofEpochSecond(startSecond), ZoneOffset.UTC));
    }
    return PodInfo.of(
        new V1Pod()
            .metadata(new V1ObjectMeta().name(name).namespace("default"))
            .spec(new V1PodSpec().priority(priority))
            .status(status));
  }

  private static Candidate cand(String node, int violations, PodInfo... victims) {
    return new Candidate(node, List.of(victims), violations);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "fewest PDB violations wins over lower priorities",
            List.of(cand("n1", 1, victim("a", 1, 0)), cand("n2", 0, victim("b", 100, 0))),
            "n2"),
        argumentSet(
            "lowest highest victim priority",
            List.of(
                cand("n1", 0, victim("a", 100, 0), victim("b", 1, 0)),
                cand("n2", 0, victim("c", 50, 0), victim("d", 50, 0), victim("e", 50, 0))),
            "n2"),
        argumentSet(
            "lowest sum of priorities shifted by 2^31",
            List.of(
                cand("n1", 0, victim("a", 100, 0), victim("b", 10, 0)),
                cand("n2", 0, victim("c", 100, 0), victim("d", 5, 0))),
            "n2"),
        argumentSet(
            "shifted sums make more negative-priority victims weigh more",
            List.of(
                cand("n1", 0, victim("a", 100, 0), victim("b", -100, 0), victim("c", -100, 0)),
                cand("n2", 0, victim("d", 100, 0), victim("e", -100, 0))),
            "n2"),
        argumentSet(
            "fewest victims when sums tie",
            List.of(
                cand("n1", 0, victim("a", 0, 0), victim("b", 0, 0)),
                cand("n2", 0, victim("c", 0, 0))),
            "n2"),
        argumentSet(
            "latest earliest start time among the highest-priority victims",
            List.of(
                cand("n1", 0, victim("a", 10, 5), victim("b", 1, 100)),
                cand("n2", 0, victim("c", 10, 7), victim("d", 1, 1))),
            "n2"),
        argumentSet(
            "a victim that has not started counts as starting now",
            List.of(cand("n1", 0, victim("a", 10, null)), cand("n2", 0, victim("b", 10, 7))),
            "n1"),
        argumentSet(
            "the first candidate when everything ties",
            List.of(
                cand("n3", 0, victim("a", 10, 7)),
                cand("n1", 0, victim("b", 10, 7)),
                cand("n2", 0, victim("c", 10, 7))),
            "n3"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void pickOneNode(List<Candidate> candidates, String want) {
    Map<String, Candidate> byNode = new LinkedHashMap<>();
    candidates.forEach(c -> byNode.put(c.name(), c));

    assertThat(Evaluator.pickOneNodeForPreemption(byNode, List.of(), NOW)).isEqualTo(want);
  }

  static Stream<Arguments> aggregateCases() {
    return Stream.of(
        argumentSet("one error", List.of("a"), "a"),
        argumentSet("repeated error", List.of("a", "a"), "a"),
        argumentSet("several errors", List.of("a", "b", "a"), "[a, b]"));
  }

  @ParameterizedTest
  @MethodSource("aggregateCases")
  void aggregate(List<String> errors, String want) {
    assertThat(Evaluator.aggregate(errors)).isEqualTo(want);
  }
}
