package io.kubesched.plugins.sample.coscheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.QueueingHint;
import io.kubesched.testing.MakePod;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Coscheduling's queueing hint for PodGroup events. */
final class CoschedulingHintTest {
  private static Map<String, Object> group(String ns, String name, int minMember, String phase) {
    Map<String, Object> pg = new LinkedHashMap<>();
    pg.put("apiVersion", PodGroup.API_VERSION);
    pg.put("kind", PodGroup.KIND);
    pg.put("metadata", Map.of("namespace", ns, "name", name));
    pg.put("spec", Map.of("minMember", minMember));
    if (phase != null) {
      pg.put("status", Map.of("phase", phase));
    }
    return pg;
  }

  private static V1Pod member(String ns, String group) {
    MakePod p = MakePod.pod().namespace(ns).name("p");
    if (group != null) {
      p.label(Coscheduling.POD_GROUP_LABEL, group);
    }
    return p.obj();
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            Named.of("its group added", member("ml", "g")),
            null,
            group("ml", "g", 2, null),
            QueueingHint.QUEUE),
        Arguments.of(
            Named.of("another group added", member("ml", "g")),
            null,
            group("ml", "h", 2, null),
            QueueingHint.SKIP),
        Arguments.of(
            Named.of("a group of that name in another namespace", member("ml", "g")),
            null,
            group("other", "g", 2, null),
            QueueingHint.SKIP),
        Arguments.of(
            Named.of("a pod without group", member("ml", null)),
            null,
            group("ml", "g", 2, null),
            QueueingHint.SKIP),
        Arguments.of(
            Named.of("its group's spec changed", member("ml", "g")),
            group("ml", "g", 3, "Pending"),
            group("ml", "g", 2, "Pending"),
            QueueingHint.QUEUE),
        Arguments.of(
            Named.of("its group's status changed only", member("ml", "g")),
            group("ml", "g", 3, "Pending"),
            group("ml", "g", 3, "PreScheduling"),
            QueueingHint.SKIP),
        Arguments.of(
            Named.of("its group deleted", member("ml", "g")),
            group("ml", "g", 3, null),
            null,
            QueueingHint.SKIP));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void hint(V1Pod pod, Map<String, Object> oldObj, Map<String, Object> newObj, QueueingHint want) {
    assertThat(Coscheduling.isSchedulableAfterPodGroupChange(pod, oldObj, newObj)).isEqualTo(want);
  }
}
