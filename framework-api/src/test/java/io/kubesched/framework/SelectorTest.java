package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class SelectorTest {
  private static final Map<String, String> LABELS =
      Map.of("app", "web", "tier", "front", "gen", "5");

  private static V1LabelSelector expr(String key, String op, String... values) {
    V1LabelSelectorRequirement r = new V1LabelSelectorRequirement().key(key).operator(op);
    if (values.length > 0) {
      r.setValues(List.of(values));
    }
    return new V1LabelSelector().addMatchExpressionsItem(r);
  }

  static Stream<Arguments> labelSelectors() {
    return Stream.of(
        Arguments.argumentSet("a null selector selects nothing", null, false),
        Arguments.argumentSet("an empty selector selects everything", new V1LabelSelector(), true),
        Arguments.argumentSet(
            "matchLabels all present",
            new V1LabelSelector().matchLabels(Map.of("app", "web", "tier", "front")),
            true),
        Arguments.argumentSet(
            "matchLabels one differs",
            new V1LabelSelector().matchLabels(Map.of("app", "web", "tier", "back")),
            false),
        Arguments.argumentSet("In matches", expr("app", "In", "db", "web"), true),
        Arguments.argumentSet("In misses", expr("app", "In", "db"), false),
        Arguments.argumentSet("In on a missing key misses", expr("zone", "In", "a"), false),
        Arguments.argumentSet("NotIn matches", expr("app", "NotIn", "db"), true),
        Arguments.argumentSet("NotIn on a missing key matches", expr("zone", "NotIn", "a"), true),
        Arguments.argumentSet("NotIn misses", expr("app", "NotIn", "web"), false),
        Arguments.argumentSet("Exists matches", expr("tier", "Exists"), true),
        Arguments.argumentSet("Exists misses", expr("zone", "Exists"), false),
        Arguments.argumentSet("DoesNotExist matches", expr("zone", "DoesNotExist"), true),
        Arguments.argumentSet("DoesNotExist misses", expr("app", "DoesNotExist"), false),
        Arguments.argumentSet(
            "matchLabels and matchExpressions are ANDed",
            expr("tier", "Exists").matchLabels(Map.of("app", "db")),
            false));
  }

  @ParameterizedTest
  @MethodSource("labelSelectors")
  void labelSelector(V1LabelSelector selector, boolean want) {
    assertThat(LabelSelector.compile(selector).matches(LABELS)).isEqualTo(want);
  }

  @Test
  void labelSelectorEdgeCases() {
    assertThat(LabelSelector.compile(null).isNothing()).isTrue();
    assertThat(LabelSelector.compile(new V1LabelSelector()).isEverything()).isTrue();
    assertThat(LabelSelector.everything().matches(null)).isTrue();
    assertThat(LabelSelector.nothing().matches(LABELS)).isFalse();
    assertThat(LabelSelector.ofLabels(Map.of("app", "web")).matches(LABELS)).isTrue();
    assertThatThrownBy(() -> LabelSelector.compile(expr("app", "Like", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Like");
    assertThatThrownBy(() -> LabelSelector.compile(expr("app", "In")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LabelSelector.compile(expr("app", "Exists", "x")))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static V1NodeSelectorTerm labels(String key, String op, String... values) {
    return new V1NodeSelectorTerm()
        .addMatchExpressionsItem(
            new V1NodeSelectorRequirement().key(key).operator(op).values(List.of(values)));
  }

  private static V1NodeSelectorTerm fields(String op, String... values) {
    return new V1NodeSelectorTerm()
        .addMatchFieldsItem(
            new V1NodeSelectorRequirement()
                .key("metadata.name")
                .operator(op)
                .values(List.of(values)));
  }

  private static V1NodeSelector terms(V1NodeSelectorTerm... terms) {
    return new V1NodeSelector().nodeSelectorTerms(List.of(terms));
  }

  static Stream<Arguments> nodeSelectors() {
    return Stream.of(
        Arguments.argumentSet("a null selector matches nothing", null, false),
        Arguments.argumentSet("no terms match nothing", terms(), false),
        Arguments.argumentSet(
            "an empty term matches nothing", terms(new V1NodeSelectorTerm()), false),
        Arguments.argumentSet("In on a label", terms(labels("zone", "In", "a", "b")), true),
        Arguments.argumentSet("NotIn on a label", terms(labels("zone", "NotIn", "a")), false),
        Arguments.argumentSet("Exists on a label", terms(labels("disk", "Exists")), true),
        Arguments.argumentSet(
            "DoesNotExist on a label", terms(labels("gpu", "DoesNotExist")), true),
        Arguments.argumentSet("Gt on an integer label", terms(labels("cores", "Gt", "8")), true),
        Arguments.argumentSet("Gt equal is not greater", terms(labels("cores", "Gt", "16")), false),
        Arguments.argumentSet("Lt on an integer label", terms(labels("cores", "Lt", "32")), true),
        Arguments.argumentSet(
            "Gt on a non-integer node label misses", terms(labels("disk", "Gt", "1")), false),
        Arguments.argumentSet(
            "Gt on a missing label misses", terms(labels("gpu", "Gt", "1")), false),
        Arguments.argumentSet("field metadata.name In", terms(fields("In", "node-1")), true),
        Arguments.argumentSet("field metadata.name In other", terms(fields("In", "node-2")), false),
        Arguments.argumentSet("field metadata.name NotIn", terms(fields("NotIn", "node-2")), true),
        Arguments.argumentSet(
            "labels and fields of one term are ANDed",
            terms(
                labels("zone", "In", "a")
                    .addMatchFieldsItem(
                        new V1NodeSelectorRequirement()
                            .key("metadata.name")
                            .operator("In")
                            .values(List.of("node-2")))),
            false),
        Arguments.argumentSet(
            "terms are ORed", terms(labels("zone", "In", "b"), fields("In", "node-1")), true),
        Arguments.argumentSet(
            "an unparsable term matches nothing, the other terms still count",
            terms(labels("cores", "Gt", "many"), labels("zone", "In", "a")),
            true),
        Arguments.argumentSet(
            "an unparsable term alone matches nothing", terms(labels("zone", "Near", "a")), false),
        Arguments.argumentSet(
            "a field term with two values does not parse",
            terms(fields("In", "node-1", "node-2")),
            false),
        Arguments.argumentSet(
            "a field term with Exists does not parse", terms(fields("Exists")), false));
  }

  @ParameterizedTest
  @MethodSource("nodeSelectors")
  void nodeSelector(V1NodeSelector selector, boolean want) {
    Map<String, String> node = Map.of("zone", "a", "disk", "ssd", "cores", "16");

    assertThat(NodeSelector.compile(selector).matches("node-1", node)).isEqualTo(want);
  }

  @Test
  void parseErrorsAreListed() {
    NodeSelector s =
        NodeSelector.compile(terms(labels("cores", "Gt", "many"), labels("zone", "In", "a")));

    assertThat(s.parseErrors()).hasSize(1);
    assertThat(s.terms().get(0).parseError()).isNotNull();
    assertThat(s.terms().get(1).parseError()).isNull();
  }
}
