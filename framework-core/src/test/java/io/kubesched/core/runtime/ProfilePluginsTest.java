package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.context;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.ScorePlugin;
import java.util.List;
import org.junit.jupiter.api.Test;

final class ProfilePluginsTest {

  private static ProfilePlugins assemble() {
    PluginRegistry registry =
        Fake.registry(
            queueSort(),
            binder(),
            Fake.plugin("FilterScore").implementing(FilterPlugin.class, ScorePlugin.class).build(),
            Fake.plugin("Filter1").implementing(FilterPlugin.class).build());
    var profile = basePlugins().enable("multiPoint", "FilterScore", "Filter1").profile();
    return Framework.create(profile, 0, registry, context()).profilePlugins();
  }

  @Test
  void holdsEveryPointsTypedListInRunOrder() {
    ProfilePlugins p = assemble();
    assertThat(p.filter()).extracting(FilterPlugin::name).containsExactly("FilterScore", "Filter1");
    assertThat(p.score()).extracting(ScorePlugin::name).containsExactly("FilterScore");
    assertThat(p.names(ExtensionPoint.FILTER)).containsExactly("FilterScore", "Filter1");
    assertThat(p.queueSort().name()).isEqualTo("QS");
    assertThat(p.bind()).hasSize(1);
    assertThat(p.scoreWeights()).containsEntry("FilterScore", 1);
    assertThat(p.list()).containsKeys("QueueSort", "Filter", "Score", "Bind");
  }

  @Test
  void isImmutable() {
    ProfilePlugins p = assemble();
    assertThatThrownBy(() -> p.filter().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.at(ExtensionPoint.SCORE).clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.plugins().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.scoreWeights().put("X", 2))
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.enqueueExtensions().put("X", List.of()))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
