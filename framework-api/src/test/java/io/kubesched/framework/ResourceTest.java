package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class ResourceTest {
  private static final long MI = 1024L * 1024;
  private static final long GI = 1024 * MI;

  static Stream<Arguments> values() {
    return Stream.of(
        Arguments.argumentSet("millicores", "500m", 500L, 1L),
        Arguments.argumentSet("binary suffix", "1Gi", 1000 * GI, GI),
        Arguments.argumentSet("exponent", "1e3", 1_000_000L, 1000L),
        Arguments.argumentSet("decimal fraction", "0.5", 500L, 1L),
        Arguments.argumentSet("mebibytes", "100Mi", 100 * MI * 1000, 100 * MI),
        Arguments.argumentSet("decimal suffix", "2k", 2_000_000L, 2000L),
        Arguments.argumentSet("a fraction of a millicore rounds up", "0.0001", 1L, 1L),
        Arguments.argumentSet("1.5 rounds up to 2", "1.5", 1500L, 2L),
        Arguments.argumentSet("zero", "0", 0L, 0L));
  }

  @ParameterizedTest
  @MethodSource("values")
  void milliValueAndValueRoundUpLikeKube(String text, long milli, long value) {
    assertThat(Quantities.milliValue(Quantities.parse(text))).isEqualTo(milli);
    assertThat(Quantities.value(Quantities.parse(text))).isEqualTo(value);
  }

  @Test
  void badQuantitiesNameTheText() {
    assertThatThrownBy(() -> Quantities.parse("12 cores"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid quantity \"12 cores\"");
    assertThatThrownBy(() -> Quantities.parse(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must not be empty");
  }

  static Stream<Arguments> resourceLists() {
    return Stream.of(
        Arguments.argumentSet(
            "cpu in millicores, memory in bytes",
            Pods.list("cpu", "500m", "memory", "1Gi"),
            new Resource(500, GI, 0, 0, Map.of())),
        Arguments.argumentSet(
            "fractional cpu",
            Pods.list("cpu", "0.5", "memory", "100Mi"),
            new Resource(500, 100 * MI, 0, 0, Map.of())),
        Arguments.argumentSet(
            "exponent cpu", Pods.list("cpu", "1e3"), new Resource(1_000_000, 0, 0, 0, Map.of())),
        Arguments.argumentSet(
            "pods and ephemeral storage",
            Pods.list("pods", "110", "ephemeral-storage", "10Gi"),
            new Resource(0, 0, 10 * GI, 110, Map.of())),
        Arguments.argumentSet(
            "extended resource",
            Pods.list("nvidia.com/gpu", "2"),
            new Resource(0, 0, 0, 0, Map.of("nvidia.com/gpu", 2L))),
        Arguments.argumentSet(
            "hugepages are scalars in bytes",
            Pods.list("hugepages-2Mi", "100Mi"),
            new Resource(0, 0, 0, 0, Map.of("hugepages-2Mi", 100 * MI))),
        Arguments.argumentSet(
            "prefixed native and attachable volumes are scalars",
            Pods.list("kubernetes.io/foo", "1", "attachable-volumes-csi-x", "3"),
            new Resource(
                0, 0, 0, 0, Map.of("kubernetes.io/foo", 1L, "attachable-volumes-csi-x", 3L))),
        Arguments.argumentSet(
            "an unknown non-scalar name is ignored",
            Pods.list("foo", "3", "cpu", "1"),
            new Resource(1000, 0, 0, 0, Map.of())),
        Arguments.argumentSet("null is zero", null, Resource.zero()));
  }

  @ParameterizedTest
  @MethodSource("resourceLists")
  void ofResourceList(Map<String, io.kubernetes.client.custom.Quantity> list, Resource want) {
    assertThat(Resource.of(list)).isEqualTo(want);
  }

  @Test
  void arithmetic() {
    Resource a = new Resource(1000, 10, 5, 1, Map.of("x/y", 2L));
    Resource b = new Resource(500, 20, 0, 0, Map.of("x/y", 1L, "z/w", 4L));

    assertThat(a.add(b)).isEqualTo(new Resource(1500, 30, 5, 1, Map.of("x/y", 3L, "z/w", 4L)));
    assertThat(a.add(b).subtract(b))
        .isEqualTo(new Resource(1000, 10, 5, 1, Map.of("x/y", 2L, "z/w", 0L)));
    assertThat(a.max(b)).isEqualTo(new Resource(1000, 20, 5, 1, Map.of("x/y", 2L, "z/w", 4L)));
    assertThat(a.get("cpu")).isEqualTo(1000);
    assertThat(a.get("x/y")).isEqualTo(2);
    assertThat(a.get("nope/none")).isZero();
    assertThat(Resource.zero().isZero()).isTrue();
  }

  @Test
  void formatGoesBackToCanonicalQuantities() {
    assertThat(Quantities.format("cpu", 500)).isEqualTo("500m");
    assertThat(Quantities.format("cpu", 2000)).isEqualTo("2");
    assertThat(Quantities.format("memory", 256 * MI)).isEqualTo("256Mi");
    assertThat(Quantities.format("nvidia.com/gpu", 3)).isEqualTo("3");
  }

  static Stream<Arguments> resourcePairs() {
    Resource base = new Resource(100, 200, 300, 4, Map.of("example.com/gpu", 1L));
    return Stream.of(
        Arguments.argumentSet(
            "equal", base, new Resource(100, 200, 300, 4, Map.of("example.com/gpu", 1L)), true),
        Arguments.argumentSet(
            "cpu differs",
            base,
            new Resource(101, 200, 300, 4, Map.of("example.com/gpu", 1L)),
            false),
        Arguments.argumentSet(
            "memory differs",
            base,
            new Resource(100, 201, 300, 4, Map.of("example.com/gpu", 1L)),
            false),
        Arguments.argumentSet(
            "storage differs",
            base,
            new Resource(100, 200, 301, 4, Map.of("example.com/gpu", 1L)),
            false),
        Arguments.argumentSet(
            "pods differ",
            base,
            new Resource(100, 200, 300, 5, Map.of("example.com/gpu", 1L)),
            false),
        Arguments.argumentSet(
            "scalars differ",
            base,
            new Resource(100, 200, 300, 4, Map.of("example.com/gpu", 2L)),
            false),
        Arguments.argumentSet("not a resource", base, "x", false));
  }

  @ParameterizedTest
  @MethodSource("resourcePairs")
  void equalsComparesEveryComponent(Resource a, Object b, boolean equal) {
    assertThat(a.equals(b)).isEqualTo(equal);
    if (equal) {
      assertThat(a.hashCode()).isEqualTo(b.hashCode());
    }
  }
}
