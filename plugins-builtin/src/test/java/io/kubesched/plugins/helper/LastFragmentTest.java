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

  static Stream<Arguments> pairs() {
    return Stream.of(
        Arguments.argumentSet(
            "equal pairs",
            new LastFragment.Pair<>("ns", List.of("a")),
            new LastFragment.Pair<>("ns", new ArrayList<>(List.of("a"))),
            true),
        Arguments.argumentSet(
            "the first differs",
            new LastFragment.Pair<>("ns", List.of("a")),
            new LastFragment.Pair<>("other", List.of("a")),
            false),
        Arguments.argumentSet(
            "the second differs",
            new LastFragment.Pair<>("ns", List.of("a")),
            new LastFragment.Pair<>("ns", List.of("b")),
            false),
        Arguments.argumentSet(
            "nulls",
            new LastFragment.Pair<>(null, null),
            new LastFragment.Pair<>(null, null),
            true));
  }

  @ParameterizedTest
  @MethodSource("pairs")
  void pairsAreEqualByBothValues(
      LastFragment.Pair<String, List<String>> a,
      LastFragment.Pair<String, List<String>> b,
      boolean equal) {
    assertThat(a.equals(b)).isEqualTo(equal);
    if (equal) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }
}
