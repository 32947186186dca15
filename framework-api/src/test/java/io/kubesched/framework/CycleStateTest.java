package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

final class CycleStateTest {
  record Count(int value) implements StateData {}

  record Other(String value) implements StateData {}

  /** A mutable state whose copy() deep-copies its list, like kube's preFilterState.Clone. */
  static final class Names implements StateData {
    final List<String> names;

    Names(List<String> names) {
      this.names = new ArrayList<>(names);
    }

    @Override
    public Names copy() {
      return new Names(names);
    }
  }

  private static final StateKey<Count> COUNT = StateKey.of("PreFilterCount", Count.class);
  private static final StateKey<Names> NAMES = StateKey.of("PreFilterNames", Names.class);

  @Test
  void readWriteDelete() {
    CycleState state = new CycleState();

    assertThat(state.read(COUNT)).isEmpty();
    state.write(COUNT, new Count(1));
    assertThat(state.read(COUNT)).contains(new Count(1));
    assertThat(state.get(COUNT)).isEqualTo(new Count(1));
    state.write(COUNT, new Count(2));
    assertThat(state.get(COUNT)).isEqualTo(new Count(2));
    state.delete(COUNT);
    assertThat(state.read(COUNT)).isEmpty();
  }

  @Test
  void getOfAMissingKeyThrowsNotFound() {
    assertThatThrownBy(() -> new CycleState().get(COUNT))
        .isInstanceOf(CycleState.StateNotFoundException.class)
        .hasMessage("not found: PreFilterCount");
  }

  @Test
  void aKeyOfAnotherTypeUnderTheSameNameFailsClearly() {
    CycleState state = new CycleState();
    state.write(COUNT, new Count(1));
    StateKey<Other> sameName = StateKey.of("PreFilterCount", Other.class);

    assertThatThrownBy(() -> state.read(sameName))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("PreFilterCount")
        .hasMessageContaining(Count.class.getName())
        .hasMessageContaining(Other.class.getName());
  }

  @Test
  void cloneCopiesMutableValuesSoTheOriginalIsUnchanged() {
    CycleState state = new CycleState();
    state.write(NAMES, new Names(List.of("a")));
    state.write(COUNT, new Count(7));

    CycleState clone = state.clone();
    clone.get(NAMES).names.add("b");
    clone.write(COUNT, new Count(8));
    clone.delete(NAMES);

    assertThat(state.get(NAMES).names).containsExactly("a");
    assertThat(state.get(COUNT)).isEqualTo(new Count(7));
  }

  @Test
  void cloneSeesTheValuesAtCloneTimeOnly() {
    CycleState state = new CycleState();
    state.write(NAMES, new Names(List.of("a")));
    CycleState clone = state.clone();

    state.get(NAMES).names.add("z");
    state.write(COUNT, new Count(1));

    assertThat(clone.get(NAMES).names).containsExactly("a");
    assertThat(clone.read(COUNT)).isEqualTo(Optional.empty());
  }

  @Test
  void cloneSharesSkipSetsAndMetricsFlag() {
    CycleState state = new CycleState();
    state.setSkipFilterPlugins(Set.of("NodePorts"));
    state.setSkipScorePlugins(Set.of("TaintToleration"));
    state.setRecordPluginMetrics(true);

    CycleState clone = state.clone();

    assertThat(clone.skipFilterPlugins()).containsExactly("NodePorts");
    assertThat(clone.skipScorePlugins()).containsExactly("TaintToleration");
    assertThat(clone.recordPluginMetrics()).isTrue();
  }

  @Test
  void immutableValuesAreSharedByDefault() {
    Count c = new Count(3);

    assertThat(c.copy()).isSameAs(c);
  }

  @Test
  void writesAndDeletesAmongSeveralKeysKeepTheOthers() {
    CycleState state = new CycleState();
    List<StateKey<Count>> keys = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      keys.add(StateKey.of("k" + i, Count.class));
      state.write(keys.get(i), new Count(i));
    }
    CycleState before = state.clone();
    state.delete(keys.get(0));
    state.delete(keys.get(3));
    state.write(keys.get(4), new Count(40));
    state.delete(StateKey.of("never-written", Count.class));
    List<Optional<Count>> got = new ArrayList<>();
    List<Optional<Count>> old = new ArrayList<>();
    for (StateKey<Count> k : keys) {
      // a key equal by name but another String object finds the same value
      got.add(state.read(StateKey.of(new String(k.name()), Count.class)));
      old.add(before.read(k));
    }
    assertThat(got)
        .isEqualTo(
            List.of(
                Optional.empty(),
                Optional.of(new Count(1)),
                Optional.of(new Count(2)),
                Optional.empty(),
                Optional.of(new Count(40))));
    assertThat(old)
        .isEqualTo(
            List.of(
                Optional.of(new Count(0)),
                Optional.of(new Count(1)),
                Optional.of(new Count(2)),
                Optional.of(new Count(3)),
                Optional.of(new Count(4))));
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(ints = {0, 3, 15, 16, 17, 40})
  void aCloneAndItsOriginalWriteOnWithoutSeeingEachOther(int before) {
    CycleState original = new CycleState();
    for (int i = 0; i < before; i++) {
      original.write(StateKey.of("k" + i, Count.class), new Count(i));
    }
    CycleState clone = original.clone();

    for (int i = 0; i < 20; i++) {
      original.write(StateKey.of("original-" + i, Count.class), new Count(i));
      clone.write(StateKey.of("clone-" + i, Count.class), new Count(-i));
    }

    for (int i = 0; i < before; i++) {
      assertThat(original.read(StateKey.of("k" + i, Count.class))).contains(new Count(i));
      assertThat(clone.read(StateKey.of("k" + i, Count.class))).contains(new Count(i));
    }
    for (int i = 0; i < 20; i++) {
      assertThat(original.read(StateKey.of("original-" + i, Count.class))).contains(new Count(i));
      assertThat(original.read(StateKey.of("clone-" + i, Count.class))).isEmpty();
      assertThat(clone.read(StateKey.of("clone-" + i, Count.class))).contains(new Count(-i));
      assertThat(clone.read(StateKey.of("original-" + i, Count.class))).isEmpty();
    }
  }

  @Test
  void aCloneKeepsTheValuesOfItsTimeWhileTheOriginalAppendsAndReplaces() {
    CycleState original = new CycleState();
    original.write(COUNT, new Count(1));
    CycleState clone = original.clone();

    original.write(StateKey.of("later", Count.class), new Count(2));
    original.write(COUNT, new Count(3));

    assertThat(clone.read(COUNT)).contains(new Count(1));
    assertThat(clone.read(StateKey.of("later", Count.class))).isEmpty();
    assertThat(original.read(COUNT)).contains(new Count(3));
  }
}
