package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.context;
import static io.kubesched.core.runtime.Fixtures.plugins;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.core.config.PluginConfig;
import io.kubesched.core.config.PluginRef;
import io.kubesched.core.config.Profile;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScorePlugin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FrameworkBuildTest {

  /** Plugins available to every case: names say which interfaces they implement. */
  private static PluginRegistry registry() {
    return Fake.registry(
        queueSort(),
        binder(),
        Fake.plugin("QS2").queueSort().build(),
        Fake.plugin("Binder2").bind(io.kubesched.framework.Status.success()).build(),
        Fake.plugin("FilterScore").implementing(FilterPlugin.class, ScorePlugin.class).build(),
        Fake.plugin("Filter1").implementing(FilterPlugin.class).build(),
        Fake.plugin("Filter2").implementing(FilterPlugin.class).build(),
        Fake.plugin("Score1").implementing(ScorePlugin.class).build(),
        Fake.plugin("Score2").implementing(ScorePlugin.class).build(),
        Fake.plugin("PreFilterFilter")
            .implementing(PreFilterPlugin.class, FilterPlugin.class)
            .build(),
        Fake.plugin("PreScoreScore").implementing(PreScorePlugin.class, ScorePlugin.class).build());
  }

  static Stream<Arguments> expansions() {
    return Stream.of(
        argumentSet(
            "MultiPoint plugins expand to every point whose interface they implement",
            basePlugins().enable("multiPoint", "PreFilterFilter", "FilterScore", "Score1"),
            Map.of(
                "PreFilter", List.of("PreFilterFilter"),
                "Filter", List.of("PreFilterFilter", "FilterScore"),
                "Score", List.of("FilterScore", "Score1"))),
        argumentSet(
            "a point disabled with * receives no MultiPoint plugin, explicit ones stay",
            basePlugins()
                .enable("multiPoint", "FilterScore", "Filter1")
                .enable("filter", "Filter2")
                .disable("filter", "*"),
            Map.of("Filter", List.of("Filter2"), "Score", List.of("FilterScore"))),
        argumentSet(
            "a MultiPoint plugin disabled at one point is skipped only there",
            basePlugins().enable("multiPoint", "FilterScore", "Filter1").disable("filter", "FilterScore"),
            Map.of("Filter", List.of("Filter1"), "Score", List.of("FilterScore"))),
        argumentSet(
            "explicit entries that are also MultiPoint come first (overrides), then MultiPoint, then"
                + " the other explicit ones",
            basePlugins()
                .enable("filter", "Filter2", "FilterScore")
                .enable("multiPoint", "Filter1", "FilterScore"),
            Map.of(
                "Filter", List.of("FilterScore", "Filter1", "Filter2"),
                "Score", List.of("FilterScore"))),
        argumentSet(
            "overrides keep their explicit order",
            basePlugins()
                .enable("filter", "Filter2", "Filter1")
                .enable("multiPoint", "Filter1", "Filter2", "FilterScore"),
            Map.of(
                "Filter", List.of("Filter2", "Filter1", "FilterScore"),
                "Score", List.of("FilterScore"))),
        argumentSet(
            "QueueSort and Bind may come from MultiPoint",
            plugins().enable("multiPoint", "QS", "Binder", "Filter1"),
            Map.of("Filter", List.of("Filter1"))));
  }

  @ParameterizedTest
  @MethodSource("expansions")
  void expandsMultiPointAsKube(
      Fixtures.PluginsBuilder plugins, Map<String, List<String>> expected) {
    Framework f = Framework.create(plugins.profile(), 0, registry(), context());

    Map<String, List<String>> want = new LinkedHashMap<>();
    for (ExtensionPoint p : ExtensionPoint.values()) {
      if (p == ExtensionPoint.QUEUE_SORT) {
        want.put(p.label(), List.of("QS"));
      } else if (p == ExtensionPoint.BIND) {
        want.put(p.label(), List.of("Binder"));
      } else if (expected.containsKey(p.label())) {
        want.put(p.label(), expected.get(p.label()));
      }
    }
    assertThat(f.listPlugins()).containsExactlyInAnyOrderEntriesOf(want);
  }

  static Stream<Arguments> invalidProfiles() {
    return Stream.of(
        argumentSet(
            "a MultiPoint plugin listed twice",
            basePlugins().enable("multiPoint", "Filter1", "Filter1"),
            "plugin \"Filter1\" already registered as \"FilterPlugin\""),
        argumentSet(
            "an explicit plugin listed twice at a point",
            basePlugins().enable("filter", "Filter1", "Filter1"),
            "plugin \"Filter1\" already registered as \"FilterPlugin\""),
        argumentSet(
            "an explicit plugin lacking the point's interface",
            basePlugins().enable("score", "Filter1"),
            "plugin \"Filter1\" does not extend ScorePlugin plugin"),
        argumentSet(
            "no QueueSort plugin",
            plugins().enable("bind", "Binder"),
            "only one queue sort plugin required for profile with scheduler name"
                + " \"default-scheduler\", but got 0"),
        argumentSet(
            "two QueueSort plugins",
            basePlugins().enable("queueSort", "QS2"),
            "only one queue sort plugin required for profile with scheduler name"
                + " \"default-scheduler\", but got 2"),
        argumentSet(
            "no Bind plugin",
            plugins().enable("queueSort", "QS"),
            "at least one bind plugin is needed for profile with scheduler name"
                + " \"default-scheduler\""),
        argumentSet(
            "an unknown explicit plugin lists the available plugins",
            basePlugins().enable("filter", "Nope"),
            "FilterPlugin \"Nope\" does not exist (available plugins: Binder, Binder2, Filter1,"
                + " Filter2, FilterScore, PreFilterFilter, PreScoreScore, QS, QS2, Score1,"
                + " Score2)"),
        argumentSet(
            "an unknown MultiPoint plugin is reported at the first point",
            basePlugins().enable("multiPoint", "Nope"),
            "PreFilterPlugin \"Nope\" does not exist (available plugins: Binder, Binder2,"
                + " Filter1, Filter2, FilterScore, PreFilterFilter, PreScoreScore, QS, QS2,"
                + " Score1, Score2)"));
  }

  @ParameterizedTest
  @MethodSource("invalidProfiles")
  void rejectsInvalidProfiles(Fixtures.PluginsBuilder plugins, String message) {
    assertThatThrownBy(() -> Framework.create(plugins.profile(), 0, registry(), context()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void rejectsRepeatedPluginConfig() {
    Profile p =
        new Profile(
            "default-scheduler",
            null,
            basePlugins().enable("filter", "Filter1").build(),
            List.of(
                new PluginConfig("Filter1", NoArgs.INSTANCE),
                new PluginConfig("Filter1", NoArgs.INSTANCE)));

    assertThatThrownBy(() -> Framework.create(p, 0, registry(), context()))
        .hasMessage("repeated config for plugin Filter1");
  }

  static Stream<Arguments> weights() {
    return Stream.of(
        argumentSet(
            "a missing weight defaults to 1",
            basePlugins().enable("multiPoint", "Score1"),
            Map.of("Score1", 1)),
        argumentSet(
            "a zero weight becomes 1",
            basePlugins().enableWeighted("multiPoint", PluginRef.of("Score1", 0)),
            Map.of("Score1", 1)),
        argumentSet(
            "the score point's weight wins over MultiPoint's",
            basePlugins()
                .enableWeighted("score", PluginRef.of("Score1", 3))
                .enableWeighted("multiPoint", PluginRef.of("Score1", 5), PluginRef.of("Score2", 7)),
            Map.of("Score1", 3, "Score2", 7)),
        argumentSet(
            "MultiPoint weights count even for a point where the plugin is disabled",
            basePlugins()
                .enableWeighted("multiPoint", PluginRef.of("FilterScore", 4))
                .disable("score", "FilterScore"),
            Map.of("FilterScore", 4)),
        argumentSet(
            "non-Score plugins get no weight",
            basePlugins().enableWeighted("multiPoint", PluginRef.of("Filter1", 9)),
            Map.of()));
  }

  @ParameterizedTest
  @MethodSource("weights")
  void computesScoreWeights(Fixtures.PluginsBuilder plugins, Map<String, Integer> expected) {
    Framework f = Framework.create(plugins.profile(), 0, registry(), context());

    assertThat(f.scoreWeights()).containsExactlyInAnyOrderEntriesOf(expected);
  }

  @Test
  void buildsEachPluginOnceWithItsHandle() {
    Fake.Provider provider =
        new Fake.Provider(
            "PreFilterFilter",
            h -> Fake.plugin("PreFilterFilter").implementing(PreFilterPlugin.class, FilterPlugin.class).build());
    PluginRegistry r = Fake.registry(queueSort(), binder()).register(provider);
    Profile p =
        basePlugins()
            .enable("preFilter", "PreFilterFilter")
            .enable("filter", "PreFilterFilter")
            .enable("multiPoint", "PreFilterFilter")
            .profile();

    Framework f = Framework.create(p, 0, r, context());

    assertThat(provider.created).isEqualTo(1);
    assertThat(f.plugins().get("PreFilterFilter"))
        .isSameAs(f.plugins().get("PreFilterFilter"))
        .isInstanceOf(FilterPlugin.class);
  }

  @Test
  void reportsAFailingFactoryAsKubeDoes() {
    PluginRegistry r =
        Fake.registry(queueSort(), binder())
            .register(
                new Fake.Provider(
                    "Broken",
                    h -> {
                      throw new IllegalArgumentException("bad args");
                    }));

    assertThatThrownBy(
            () ->
                Framework.create(
                    basePlugins().enable("filter", "Broken").profile(), 0, r, context()))
        .hasMessage("initializing plugin \"Broken\": bad args");
  }

  @Test
  void registersDefaultEventsForPluginsWithoutEnqueueExtensions() {
    List<ClusterEventWithHint> own = List.of(ClusterEventWithHint.of(EventResource.NODE, ActionType.ADD));
    PluginRegistry r =
        Fake.registry(
            queueSort(),
            binder(),
            Fake.plugin("WithEvents").implementing(FilterPlugin.class).events(own).build(),
            Fake.plugin("NoEvents").implementing(ReservePlugin.class, PermitPlugin.class).build(),
            Fake.plugin("ScoreOnly").implementing(ScorePlugin.class).build());

    Framework f =
        Framework.create(
            basePlugins().enable("multiPoint", "WithEvents", "NoEvents", "ScoreOnly").profile(),
            0,
            r,
            context());

    assertThat(f.enqueueExtensions())
        .containsOnlyKeys("WithEvents", "NoEvents")
        .containsEntry("WithEvents", own);
    assertThat(f.enqueueExtensions().get("NoEvents"))
        .extracting(e -> e.event().resource() + "/" + ActionType.toString(e.event().actionType()))
        .containsExactly(
            "Pod/All",
            "Node/All",
            "PersistentVolume/All",
            "PersistentVolumeClaim/All",
            "storage.k8s.io/CSINode/All",
            "storage.k8s.io/CSIDriver/All",
            "storage.k8s.io/CSIStorageCapacity/All",
            "storage.k8s.io/StorageClass/All",
            "resource.k8s.io/ResourceClaim/All",
            "resource.k8s.io/ResourceSlice/All",
            "resource.k8s.io/DeviceClass/All");
  }

  @Test
  void exposesProfileSettings() {
    Profile p =
        new Profile(
            "my-scheduler",
            30,
            basePlugins().enable("filter", "Filter1").build(),
            List.of());

    Framework f = Framework.create(p, 10, registry(), context());

    assertThat(List.of(f.profileName(), f.percentageOfNodesToScore(), f.globalPercentageOfNodesToScore(),
            f.hasFilterPlugins(), f.hasScorePlugins(), f.hasPostFilterPlugins()))
        .containsExactly("my-scheduler", 30, 10, true, false, false);
    assertThat(f.queueSortPlugin().name()).isEqualTo("QS");
  }

  @Test
  void acceptsUnusedPluginNotInAnyList() {
    Plugin extra = Fake.plugin("Extra").implementing(FilterPlugin.class).build();
    Framework f =
        Framework.create(
            basePlugins().profile(), 0, Fake.registry(queueSort(), binder(), extra), context());

    assertThat(f.plugins()).containsOnlyKeys("QS", "Binder");
  }
}
