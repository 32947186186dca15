package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.Plugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The skip sets of an extension point, asked for by the mask of the skipped plugins. */
final class SkipSetsTest {
  private static final List<Plugin> PLUGINS =
      List.of(plugin("NodeAffinity"), plugin("NodePorts"), plugin("VolumeBinding"));

  static Stream<Arguments> masks() {
    return Stream.of(
        Arguments.argumentSet("none", 0b000L, Set.of()),
        Arguments.argumentSet("the first", 0b001L, Set.of("NodeAffinity")),
        Arguments.argumentSet("the last", 0b100L, Set.of("VolumeBinding")),
        Arguments.argumentSet("all", 0b111L, Set.of("NodeAffinity", "NodePorts", "VolumeBinding")));
  }

  @ParameterizedTest
  @MethodSource("masks")
  void aMaskNamesItsPlugins(long mask, Set<String> expected) {
    SkipSets sets = new SkipSets(PLUGINS);
    sets.of(0b010L);
    assertThat(sets.of(mask)).isEqualTo(expected);
  }

  @ParameterizedTest
  @MethodSource("masks")
  void theSameMaskAgainIsTheSameSet(long mask, Set<String> expected) {
    SkipSets sets = new SkipSets(PLUGINS);
    assertThat(sets.of(mask)).isSameAs(sets.of(mask));
  }

  @Test
  void theSetsCannotBeChanged() {
    Set<String> set = new SkipSets(PLUGINS).of(0b001L);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> set.add("X"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aPointOfMoreThan64PluginsHasNoMasks() {
    List<Plugin> many = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      many.add(plugin("P" + i));
    }
    assertThat(new SkipSets(many).masks()).isFalse();
    assertThat(new SkipSets(PLUGINS).masks()).isTrue();
  }

  private static Plugin plugin(String name) {
    return () -> name;
  }

  @Test
  void aCollectorGivesTheSkippedPluginsWithMasksOrWithout() {
    SkipSets.Collector few = new SkipSets(PLUGINS).collector();
    few.add(0, "NodeAffinity");
    few.add(2, "VolumeBinding");
    List<Plugin> many = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      many.add(plugin("P" + i));
    }
    SkipSets.Collector all = new SkipSets(many).collector();
    all.add(64, "P64");

    assertThat(few.set()).isEqualTo(Set.of("NodeAffinity", "VolumeBinding"));
    assertThat(all.set()).isEqualTo(Set.of("P64"));
  }
}
