package io.kubesched.plugins.helper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.PodInfo;
import io.kubesched.testing.MakePod;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Two pods share a signature fragment exactly when the signed values are equal. */
class SignaturesTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "the same requests",
            MakePod.pod().name("a").req("cpu", "1", "memory", "1Gi").info(),
            MakePod.pod().name("b").req("cpu", "1", "memory", "1Gi").info(),
            true,
            true),
        argumentSet(
            "other cpu",
            MakePod.pod().name("a").req("cpu", "1").info(),
            MakePod.pod().name("b").req("cpu", "2").info(),
            false,
            true),
        argumentSet(
            "no requests against the non-zero defaults requested",
            MakePod.pod().name("a").info(),
            MakePod.pod().name("b").req("cpu", "100m", "memory", "200Mi").info(),
            false,
            true),
        argumentSet(
            "a scalar resource",
            MakePod.pod().name("a").req("cpu", "1").info(),
            MakePod.pod().name("b").req("cpu", "1", "example.com/gpu", "1").info(),
            false,
            true),
        argumentSet(
            "the same tolerations",
            MakePod.pod().name("a").toleration("k", "v", "NoSchedule").info(),
            MakePod.pod().name("b").toleration("k", "v", "NoSchedule").info(),
            true,
            true),
        argumentSet(
            "another toleration value",
            MakePod.pod().name("a").toleration("k", "v", "NoSchedule").info(),
            MakePod.pod().name("b").toleration("k", "w", "NoSchedule").info(),
            true,
            false),
        argumentSet(
            "a key and value that run together differently",
            MakePod.pod().name("a").toleration("kv", "", "NoSchedule").info(),
            MakePod.pod().name("b").toleration("k", "v", "NoSchedule").info(),
            true,
            false),
        argumentSet(
            "exists against equal",
            MakePod.pod().name("a").tolerationExists("k", "NoSchedule").info(),
            MakePod.pod().name("b").toleration("k", "", "NoSchedule").info(),
            true,
            false));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void fragmentsAreEqualExactlyForEqualValues(
      PodInfo a, PodInfo b, boolean sameRequests, boolean sameTolerations) {
    assertThat(Signatures.requests(a).equals(Signatures.requests(b))).isEqualTo(sameRequests);
    assertThat(
            Signatures.tolerations(a.tolerations()).equals(Signatures.tolerations(b.tolerations())))
        .isEqualTo(sameTolerations);
  }
}
