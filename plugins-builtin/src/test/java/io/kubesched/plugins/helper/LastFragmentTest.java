package io.kubesched.plugins.helper;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** A plugin's last signature fragment, handed out again for an equal value. */
final class LastFragmentTest {
  static Stream<Arguments> values() {
    return Stream.of(
        Arguments.argumentSet("the same list", List.of("a"), List.of("a"), true),
        Arguments.argumentSet(
            "an equal list", List.of("a", "b"), new ArrayList<>(List.of("a", "b")), true),
        Arguments.argumentSet("another list", List.of("a"), List.of("b"), false),
        Arguments.argumentSet("null twice", null, null, true),
        Arguments.argumentSet("null then a list", null, List.of(), false));
  }

  @ParameterizedTest
  @MethodSource("values")
  void anEqualValueGetsTheLastFragmentAnotherABuiltOne(
      List<String> first, List<String> second, boolean reused) {
    List<List<String>> built = new ArrayList<>();
    LastFragment<List<String>> fragments =
        new LastFragment<>(
            v -> {
              built.add(v);
              return String.valueOf(v);
            });

    Optional<String> a = fragments.of(first);
    Optional<String> b = fragments.of(second);

    assertThat(a).contains(String.valueOf(first));
    assertThat(b).contains(String.valueOf(second));
    assertThat(b == a).isEqualTo(reused);
    assertThat(built).hasSize(reused ? 1 : 2);
  }
}
