package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Toleration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Ports kube's {@code TestTolerationToleratesTaint} (k8s.io/api/core/v1) at v1.33 semantics. */
final class TolerationTest {
  private static Toleration tol(String key, String op, String value, String effect) {
    return new Toleration(key, op, value, effect, null);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "same key and effect, operator Exists, taint without value: tolerated",
            tol("foo", "Exists", null, "NoSchedule"),
            new Taint("foo", null, "NoSchedule"),
            true),
        Arguments.argumentSet(
            "same key and effect, operator Exists, taint with a value: tolerated",
            tol("foo", "Exists", null, "NoSchedule"),
            new Taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.argumentSet(
            "same effect, empty key with Exists matches all taints: tolerated",
            tol("", "Exists", null, "NoSchedule"),
            new Taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.argumentSet(
            "same key, effect and value, operator Equal: tolerated",
            tol("foo", "Equal", "bar", "NoSchedule"),
            new Taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.argumentSet(
            "same key and effect, different values, operator Equal: not tolerated",
            tol("foo", "Equal", "value1", "NoSchedule"),
            new Taint("foo", "value2", "NoSchedule"),
            false),
        Arguments.argumentSet(
            "same key and value, different effects, operator Equal: not tolerated",
            tol("foo", "Equal", "bar", "NoSchedule"),
            new Taint("foo", "bar", "NoExecute"),
            false),
        Arguments.argumentSet(
            "an empty operator means Equal",
            tol("foo", "", "bar", "NoSchedule"),
            new Taint("foo", "bar", "NoSchedule"),
            true),
        Arguments.argumentSet(
            "an empty effect matches every effect",
            tol("foo", "Equal", "bar", ""),
            new Taint("foo", "bar", "PreferNoSchedule"),
            true),
        Arguments.argumentSet(
            "different keys: not tolerated",
            tol("foo", "Exists", null, ""),
            new Taint("baz", "bar", "NoSchedule"),
            false),
        Arguments.argumentSet(
            "empty key and effect with Exists tolerates everything",
            tol("", "Exists", null, ""),
            new Taint("any", "thing", "NoExecute"),
            true),
        Arguments.argumentSet(
            "Gt is not an operator in v1.33 (its gate arrives in v1.35): not tolerated",
            tol("node.kubernetes.io/sla", "Gt", "750", "NoSchedule"),
            new Taint("node.kubernetes.io/sla", "950", "NoSchedule"),
            false),
        Arguments.argumentSet(
            "an unknown operator: not tolerated",
            tol("foo", "Like", "bar", "NoSchedule"),
            new Taint("foo", "bar", "NoSchedule"),
            false));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void toleratesTaint(Toleration toleration, Taint taint, boolean want) {
    assertThat(toleration.tolerates(taint)).isEqualTo(want);
  }

  @Test
  void convertsClientObjectsWithEmptyStringsForNulls() {
    assertThat(Toleration.of(new V1Toleration().key("k").operator("Exists").tolerationSeconds(30L)))
        .isEqualTo(new Toleration("k", "Exists", "", "", 30L));
    assertThat(new Taint("k", null, "NoSchedule").keyValue()).isEqualTo("{k: }");
  }

  @Test
  void anyTolerates() {
    Taint taint = new Taint("foo", "bar", "NoSchedule");

    assertThat(
            Toleration.anyTolerates(
                List.of(tol("x", "Exists", null, ""), tol("foo", "Exists", null, "")), taint))
        .isTrue();
    assertThat(Toleration.anyTolerates(List.of(), taint)).isFalse();
  }

  static Stream<Arguments> tolerationPairs() {
    Toleration base = new Toleration("k", "Equal", "v", "NoExecute", 300L);
    return Stream.of(
        Arguments.argumentSet(
            "equal", base, new Toleration("k", "Equal", "v", "NoExecute", 300L), true),
        Arguments.argumentSet(
            "null strings equal empty ones",
            new Toleration(null, null, null, null, null),
            new Toleration("", "", "", "", null),
            true),
        Arguments.argumentSet(
            "key differs", base, new Toleration("j", "Equal", "v", "NoExecute", 300L), false),
        Arguments.argumentSet(
            "operator differs", base, new Toleration("k", "Exists", "v", "NoExecute", 300L), false),
        Arguments.argumentSet(
            "value differs", base, new Toleration("k", "Equal", "w", "NoExecute", 300L), false),
        Arguments.argumentSet(
            "effect differs", base, new Toleration("k", "Equal", "v", "NoSchedule", 300L), false),
        Arguments.argumentSet(
            "seconds differ", base, new Toleration("k", "Equal", "v", "NoExecute", 301L), false),
        Arguments.argumentSet(
            "seconds absent", base, new Toleration("k", "Equal", "v", "NoExecute", null), false),
        Arguments.argumentSet("not a toleration", base, "x", false));
  }

  @ParameterizedTest
  @MethodSource("tolerationPairs")
  void equalsComparesEveryComponent(Toleration a, Object b, boolean equal) {
    assertThat(a.equals(b)).isEqualTo(equal);
    if (equal) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }
}
