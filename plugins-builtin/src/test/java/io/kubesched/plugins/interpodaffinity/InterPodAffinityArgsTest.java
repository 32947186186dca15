package io.kubesched.plugins.interpodaffinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.FieldError;
import io.kubesched.plugins.spreadtesting.FakeHandle;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Validation of InterPodAffinityArgs, ported from kube's TestValidateInterPodAffinityArgs. */
final class InterPodAffinityArgsTest {
  static final String P = "profiles[0].pluginConfig[0].args";

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet("valid args", new InterPodAffinityArgs(10, false), List.of()),
        Arguments.argumentSet("defaults", InterPodAffinityArgs.defaults(), List.of()),
        Arguments.argumentSet("weight 0 and 100 are accepted",
            new InterPodAffinityArgs(0, true), List.of()),
        Arguments.argumentSet("hardPodAffinityWeight below the range",
            new InterPodAffinityArgs(-1, false),
            List.of(new FieldError(P + ".hardPodAffinityWeight",
                "Invalid value: -1: not in valid range [0, 100]"))),
        Arguments.argumentSet("hardPodAffinityWeight above the range",
            new InterPodAffinityArgs(101, false),
            List.of(new FieldError(P + ".hardPodAffinityWeight",
                "Invalid value: 101: not in valid range [0, 100]"))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void validate(InterPodAffinityArgs args, List<FieldError> want) {
    assertThat(args.validate(P)).isEqualTo(want);
  }

  @Test
  void providerDefaultsAndRejection() {
    InterPodAffinityProvider provider = new InterPodAffinityProvider();
    FakeHandle handle = FakeHandle.of(List.of(), List.of());

    assertThat(provider.name()).isEqualTo("InterPodAffinity");
    assertThat(provider.defaultArgs()).isEqualTo(new InterPodAffinityArgs(1, false));
    assertThat(provider.create(provider.defaultArgs(), handle)).isInstanceOf(InterPodAffinity.class);
    assertThatThrownBy(() -> provider.create(new InterPodAffinityArgs(101, false), handle))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("args.hardPodAffinityWeight");
  }
}
