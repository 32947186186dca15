package io.kubesched.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link DefaultPlugins#merge}, ported from kube's {@code TestMergePlugins}. */
final class ConfigMergePluginsTest {

  private static PluginRef p(String name) {
    return PluginRef.of(name);
  }

  private static PluginRef p(String name, int weight) {
    return PluginRef.of(name, weight);
  }

  private static PluginSet set(List<PluginRef> enabled, List<PluginRef> disabled) {
    return new PluginSet(enabled, disabled);
  }

  private static Plugins filter(PluginSet s) {
    return new Plugins(null, null, null, s, null, null, null, null, null, null, null, null, null);
  }

  private static Plugins multiPoint(PluginSet s) {
    return new Plugins(null, null, null, null, null, null, null, null, null, null, null, null, s);
  }

  private static Plugins multiPointAndScore(PluginSet mp, PluginSet score) {
    return new Plugins(null, null, null, null, null, null, score, null, null, null, null, null, mp);
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        argumentSet(
            "AppendCustomPlugin",
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            filter(set(List.of(p("CustomPlugin")), List.of())),
            filter(
                set(
                    List.of(p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin")),
                    List.of()))),
        argumentSet(
            "InsertAfterDefaultPlugins2",
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            filter(
                set(List.of(p("CustomPlugin"), p("DefaultPlugin2")), List.of(p("DefaultPlugin2")))),
            filter(
                set(
                    List.of(p("DefaultPlugin1"), p("CustomPlugin"), p("DefaultPlugin2")),
                    List.of(p("DefaultPlugin2"))))),
        argumentSet(
            "InsertBeforeAllPlugins",
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            filter(
                set(
                    List.of(p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")),
                    List.of(p("*")))),
            filter(
                set(
                    List.of(p("CustomPlugin"), p("DefaultPlugin1"), p("DefaultPlugin2")),
                    List.of(p("*"))))),
        argumentSet(
            "ReorderDefaultPlugins",
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            filter(set(List.of(p("DefaultPlugin2"), p("DefaultPlugin1")), List.of(p("*")))),
            filter(set(List.of(p("DefaultPlugin2"), p("DefaultPlugin1")), List.of(p("*"))))),
        argumentSet(
            "ApplyNilCustomPlugin",
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            null,
            filter(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of()))),
        argumentSet(
            "CustomPluginOverrideDefaultPlugin",
            filter(set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")), List.of())),
            filter(set(List.of(p("Plugin1", 2), p("Plugin3", 3)), List.of())),
            filter(set(List.of(p("Plugin1", 2), p("Plugin2"), p("Plugin3", 3)), List.of()))),
        argumentSet(
            "OrderPreserveAfterOverride",
            filter(set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")), List.of())),
            filter(set(List.of(p("Plugin2", 2), p("Plugin1", 1)), List.of())),
            filter(set(List.of(p("Plugin1", 1), p("Plugin2", 2), p("Plugin3")), List.of()))),
        argumentSet(
            "RepeatedCustomPlugin",
            filter(set(List.of(p("Plugin1"), p("Plugin2"), p("Plugin3")), List.of())),
            filter(
                set(
                    List.of(p("Plugin1"), p("Plugin2", 2), p("Plugin3"), p("Plugin2", 4)),
                    List.of())),
            filter(
                set(
                    List.of(p("Plugin1"), p("Plugin2", 4), p("Plugin3"), p("Plugin2", 2)),
                    List.of()))),
        argumentSet(
            "Append custom MultiPoint plugin",
            multiPoint(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            multiPoint(set(List.of(p("CustomPlugin")), List.of())),
            multiPoint(
                set(
                    List.of(p("DefaultPlugin1"), p("DefaultPlugin2"), p("CustomPlugin")),
                    List.of()))),
        argumentSet(
            "Append disabled Multipoint plugins",
            multiPoint(set(List.of(p("DefaultPlugin1"), p("DefaultPlugin2")), List.of())),
            multiPointAndScore(
                set(List.of(p("CustomPlugin"), p("CustomPlugin2")), List.of(p("DefaultPlugin2"))),
                set(List.of(), List.of(p("CustomPlugin2")))),
            multiPointAndScore(
                set(
                    List.of(p("DefaultPlugin1"), p("CustomPlugin"), p("CustomPlugin2")),
                    List.of(p("DefaultPlugin2"))),
                set(List.of(), List.of(p("CustomPlugin2"))))),
        argumentSet(
            "override default MultiPoint plugins with custom value",
            multiPoint(set(List.of(p("DefaultPlugin")), List.of())),
            multiPoint(set(List.of(p("DefaultPlugin", 5)), List.of())),
            multiPoint(set(List.of(p("DefaultPlugin", 5)), List.of()))),
        argumentSet(
            "disabled MultiPoint plugin in default set",
            multiPoint(set(List.of(p("DefaultPlugin")), List.of(p("DefaultPlugin2")))),
            multiPoint(set(List.of(p("CustomPlugin")), List.of())),
            multiPoint(
                set(List.of(p("DefaultPlugin"), p("CustomPlugin")), List.of(p("DefaultPlugin2"))))),
        argumentSet(
            "disabled MultiPoint plugin in default set for specific extension point",
            multiPointAndScore(
                set(List.of(p("DefaultPlugin")), List.of()),
                set(List.of(), List.of(p("DefaultPlugin2")))),
            multiPoint(set(List.of(p("CustomPlugin")), List.of())),
            multiPointAndScore(
                set(List.of(p("DefaultPlugin"), p("CustomPlugin")), List.of()),
                set(List.of(), List.of(p("DefaultPlugin2"))))),
        argumentSet(
            "multipoint with only disabled gets merged",
            multiPoint(set(List.of(p("DefaultPlugin")), List.of())),
            multiPoint(set(List.of(), List.of(p("DefaultPlugin")))),
            multiPoint(set(List.of(), List.of(p("DefaultPlugin"))))),
        argumentSet(
            "weights of disabled entries are dropped",
            filter(set(List.of(p("A")), List.of())),
            filter(set(List.of(), List.of(p("A", 3)))),
            filter(set(List.of(), List.of(p("A"))))));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void merge(Plugins defaults, Plugins custom, Plugins want) {
    assertThat(DefaultPlugins.merge(defaults, custom)).isEqualTo(want);
  }
}
