package io.kubesched.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubesched.core.config.ConfigTestPlugins.CustomArgs;
import io.kubesched.core.config.ConfigTestPlugins.FitArgs;
import io.kubesched.core.config.ConfigTestPlugins.Mode;
import io.kubesched.core.config.ConfigTestPlugins.ResourceSpec;
import io.kubesched.core.config.ConfigTestPlugins.ScoringStrategy;
import io.kubesched.core.config.ConfigTestPlugins.ScoringType;
import io.kubesched.core.config.ConfigTestPlugins.TestProvider;
import io.kubesched.framework.FieldError;
import java.lang.reflect.Type;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link ArgsCodec} and {@link GoDuration}. */
final class ConfigArgsCodecTest {

  /** A record using every supported kind of component. */
  record Everything(
      String s,
      int i,
      Integer boxed,
      long l,
      double d,
      float f,
      boolean b,
      short sh,
      byte by,
      Mode mode,
      Duration duration,
      List<ResourceSpec> specs,
      Set<String> set,
      Map<String, List<Integer>> map,
      ScoringStrategy nested,
      IntOrString intOrString,
      Object anything) {}

  private static final Type EVERYTHING = Everything.class;

  static Stream<Arguments> decodeCases() {
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("s", "x");
    all.put("i", 7);
    all.put("boxed", 8L);
    all.put("l", new BigInteger("9000000000"));
    all.put("d", 1);
    all.put("f", 2.5);
    all.put("b", true);
    all.put("sh", 3);
    all.put("by", -4);
    all.put("mode", "careful");
    all.put("duration", "1h2m3.5s");
    all.put("specs", List.of(Map.of("name", "cpu", "weight", 2)));
    all.put("set", List.of("a", "b", "a"));
    all.put("map", Map.of("k", List.of(1, 2)));
    all.put("nested", Map.of("type", "MostAllocated", "resources", List.of()));
    all.put("intOrString", "50%");
    all.put("anything", Map.of("free", List.of(1)));
    return Stream.of(
        argumentSet(
            "every supported type",
            all,
            new Everything(
                "x",
                7,
                8,
                9_000_000_000L,
                1d,
                2.5f,
                true,
                (short) 3,
                (byte) -4,
                Mode.CAREFUL,
                Duration.ofMillis(3_723_500),
                List.of(new ResourceSpec("cpu", 2)),
                Set.of("a", "b"),
                Map.of("k", List.of(1, 2)),
                new ScoringStrategy(ScoringType.MostAllocated, List.of()),
                new IntOrString("50%"),
                Map.of("free", List.of(1)))),
        argumentSet(
            "missing fields are zero, null, or empty collections",
            Map.of(),
            new Everything(
                null, 0, null, 0L, 0d, 0f, false, (short) 0, (byte) 0, null, null, List.of(),
                Set.of(), Map.of(), null, null, null)),
        argumentSet(
            "enums also match their constant name",
            Map.of("mode", "CAREFUL", "i", 4.0),
            new Everything(
                null,
                4,
                null,
                0L,
                0d,
                0f,
                false,
                (short) 0,
                (byte) 0,
                Mode.CAREFUL,
                null,
                List.of(),
                Set.of(),
                Map.of(),
                null,
                null,
                null)));
  }

  @ParameterizedTest
  @MethodSource("decodeCases")
  void decode(Map<String, Object> raw, Everything want) {
    List<FieldError> errors = new ArrayList<>();
    Object got = ArgsCodec.decode(raw, EVERYTHING, "args", errors);
    assertThat(errors).isEmpty();
    assertThat(got).isEqualTo(want);
  }

  static Stream<Arguments> decodeErrorCases() {
    return Stream.of(
        argumentSet(
            "int out of range",
            Map.of("i", 3_000_000_000L),
            List.of("args.i: Invalid value: 3000000000: out of range [-2147483648, 2147483647]")),
        argumentSet(
            "byte out of range",
            Map.of("by", 300),
            List.of("args.by: Invalid value: 300: out of range [-128, 127]")),
        argumentSet(
            "string expected",
            Map.of("s", 1),
            List.of("args.s: Invalid value: 1: expected a string")),
        argumentSet(
            "mapping expected for a nested record",
            Map.of("nested", "MostAllocated"),
            List.of("args.nested: Invalid value: \"MostAllocated\": expected a mapping")),
        argumentSet(
            "errors inside lists and maps carry the index or key",
            Map.of(
                "specs", List.of(Map.of("name", "cpu"), Map.of("weight", "x")),
                "map", Map.of("k", List.of(1, "two"))),
            List.of(
                "args.specs[1].weight: Invalid value: \"x\": expected an integer",
                "args.map[k][1]: Invalid value: \"two\": expected an integer")),
        argumentSet(
            "negative or malformed durations",
            Map.of("duration", "1.2.3s"),
            List.of("args.duration: Invalid value: \"1.2.3s\": invalid duration \"1.2.3s\"")));
  }

  @ParameterizedTest
  @MethodSource("decodeErrorCases")
  void decodeErrors(Map<String, Object> raw, List<String> want) {
    List<FieldError> errors = new ArrayList<>();
    Object got = ArgsCodec.decode(raw, EVERYTHING, "args", errors);
    assertThat(got).isNull();
    assertThat(errors).extracting(Object::toString).isEqualTo(want);
  }

  static Stream<Arguments> overlayCases() {
    return Stream.of(
        argumentSet(
            "nested maps merge",
            Map.of("a", Map.of("x", 1, "y", 2)),
            Map.of("a", Map.of("y", 3)),
            Map.of("a", Map.of("x", 1, "y", 3))),
        argumentSet(
            "lists replace",
            Map.of("a", List.of(1, 2)),
            Map.of("a", List.of(3)),
            Map.of("a", List.of(3))),
        argumentSet("null keeps the default", Map.of("a", 1), mapOfNull("a"), Map.of("a", 1)),
        argumentSet(
            "a scalar replaces a map",
            Map.of("a", Map.of("x", 1)),
            Map.of("a", "flat"),
            Map.of("a", "flat")),
        argumentSet("new keys are added", Map.of("a", 1), Map.of("b", 2), Map.of("a", 1, "b", 2)));
  }

  private static Map<String, Object> mapOfNull(String key) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put(key, null);
    return m;
  }

  @ParameterizedTest
  @MethodSource("overlayCases")
  void overlay(Map<String, Object> base, Map<String, Object> over, Map<String, Object> want) {
    assertThat(ArgsCodec.overlay(base, over)).isEqualTo(want);
  }

  @Test
  void encodeTurnsRecordsAndModelsIntoPlainMaps() {
    record WithModel(FitArgs fit, V1TopologySpreadConstraint constraint, String absent) {}
    Object encoded =
        ArgsCodec.encode(
            new WithModel(
                FitArgs.DEFAULT,
                new V1TopologySpreadConstraint()
                    .maxSkew(1)
                    .topologyKey("zone")
                    .labelSelector(new V1LabelSelector().matchLabels(Map.of("app", "a"))),
                null));
    assertThat(encoded)
        .isEqualTo(
            Map.of(
                "fit",
                Map.of(
                    "scoringStrategy",
                    Map.of(
                        "type",
                        ScoringType.LeastAllocated,
                        "resources",
                        List.of(
                            Map.of("name", "cpu", "weight", 1L),
                            Map.of("name", "memory", "weight", 1L))),
                    "ignoredResources",
                    List.of(),
                    "ignoredResourceGroups",
                    List.of()),
                "constraint",
                Map.of(
                    "maxSkew",
                    1,
                    "topologyKey",
                    "zone",
                    // client-java initialises list fields to empty lists
                    "matchLabelKeys",
                    List.of(),
                    "labelSelector",
                    Map.of("matchExpressions", List.of(), "matchLabels", Map.of("app", "a")))));
  }

  @Test
  void decodeArgsStartsFromTheDefaultsAndValidates() {
    var provider = new TestProvider<>("CustomScore", CustomArgs.class, CustomArgs.DEFAULT);
    List<FieldError> errors = new ArrayList<>();
    CustomArgs got =
        ArgsCodec.decodeArgs(
            provider,
            Map.of("kind", "CustomScoreArgs", "weights", Map.of("b", 2), "limit", 3),
            "p.args",
            errors);
    assertThat(errors).isEmpty();
    assertThat(got)
        .isEqualTo(
            new CustomArgs(
                Duration.ofSeconds(30), Map.of("a", 1, "b", 2), Mode.FAST, 3, List.of("x")));
  }

  static Stream<Arguments> durationCases() {
    return Stream.of(
        argumentSet("seconds", "10s", Duration.ofSeconds(10), "10s"),
        argumentSet("zero", "0", Duration.ZERO, "0s"),
        argumentSet("compound", "1h30m", Duration.ofMinutes(90), "1h30m0s"),
        argumentSet("fraction", "1.5s", Duration.ofMillis(1500), "1.5s"),
        argumentSet("milliseconds", "300ms", Duration.ofMillis(300), "300ms"),
        argumentSet("micro and nano", "2us5ns", Duration.ofNanos(2005), "2.005\u00b5s"),
        argumentSet("negative", "-2m", Duration.ofMinutes(-2), "-2m0s"),
        argumentSet("fractional hours", "0.5h", Duration.ofMinutes(30), "30m0s"));
  }

  @ParameterizedTest
  @MethodSource("durationCases")
  void goDurations(String text, Duration want, String formatted) {
    assertThat(GoDuration.parse(text)).isEqualTo(want);
    assertThat(GoDuration.format(want)).isEqualTo(formatted);
  }

  static Stream<Arguments> badDurations() {
    return Stream.of(
        argumentSet("no unit", "10", "missing unit in duration \"10\""),
        argumentSet("unknown unit", "3d", "unknown unit \"d\" in duration \"3d\""),
        argumentSet("empty", "", "invalid duration \"\""),
        argumentSet("sign only", "-", "invalid duration \"-\""),
        argumentSet("unit only", "s", "invalid duration \"s\""));
  }

  @ParameterizedTest
  @MethodSource("badDurations")
  void badGoDurations(String text, String message) {
    assertThatThrownBy(() -> GoDuration.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
