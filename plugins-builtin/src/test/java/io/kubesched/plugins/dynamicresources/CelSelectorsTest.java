package io.kubesched.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CelSelectorsTest {
  private static final String DRIVER = "gpu.example.com";
  private static final Map<String, V1DeviceAttribute> ATTRS =
      Map.of(
          "model", new V1DeviceAttribute().string("a100"),
          "index", new V1DeviceAttribute()._int(3L),
          "healthy", new V1DeviceAttribute().bool(true),
          "driverVersion", new V1DeviceAttribute().version("1.2.3"),
          "other.example.com/zone", new V1DeviceAttribute().string("z1"));
  private static final Map<String, V1DeviceCapacity> CAPS =
      Map.of("memory", new V1DeviceCapacity().value(Quantity.fromString("40Gi")));

  private final CelSelectors cel = new CelSelectors();

  static Stream<Arguments> expressions() {
    return Stream.of(
        Arguments.of("driver", "device.driver == 'gpu.example.com'", true),
        Arguments.of(
            "string attribute", "device.attributes['gpu.example.com'].model == 'a100'", true),
        Arguments.of("int attribute", "device.attributes['gpu.example.com'].index > 2", true),
        Arguments.of("bool attribute", "device.attributes['gpu.example.com'].healthy", true),
        Arguments.of("other domain", "device.attributes['other.example.com'].zone == 'z1'", true),
        Arguments.of("unknown domain is empty", "device.attributes['x.io'].size() == 0", true),
        Arguments.of("has on unknown domain", "has(device.attributes['x.io'].model)", false),
        Arguments.of("has on known id", "has(device.attributes['gpu.example.com'].model)", true),
        Arguments.of(
            "quantity compare",
            "device.capacity['gpu.example.com'].memory.compareTo(quantity('32Gi')) >= 0",
            true),
        Arguments.of(
            "quantity greater",
            "device.capacity['gpu.example.com'].memory.isGreaterThan(quantity('80Gi'))",
            false),
        Arguments.of(
            "semver",
            "device.attributes['gpu.example.com'].driverVersion.isGreaterThan(semver('1.2.0'))",
            true),
        Arguments.of(
            "semver prerelease", "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true),
        Arguments.of("semver major", "semver('2.3.4').major() == 2", true),
        Arguments.of(
            "cel.bind",
            "cel.bind(a, device.attributes['gpu.example.com'], a.model == 'a100' && a.index == 3)",
            true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("expressions")
  void evaluates(String name, String expression, boolean want) throws Exception {
    CelSelectors.Compiled c = cel.compile(expression);
    assertThat(c.error()).isNull();
    assertThat(cel.matches(c, DRIVER, ATTRS, CAPS)).isEqualTo(want);
  }

  @Test
  void compileErrorNamesTheProblem() {
    assertThat(cel.compile("device.attributes[").error()).startsWith("compilation failed: ");
    assertThat(cel.compile("device.nosuchfield == 1").error()).startsWith("compilation failed: ");
    assertThat(cel.compile("'a'").error())
        .isEqualTo("must evaluate to bool or the unknown type, not string");
  }

  @Test
  void missingAttributeIsARuntimeError() {
    CelSelectors.Compiled c = cel.compile("device.attributes['gpu.example.com'].nosuch == 1");
    assertThatThrownBy(() -> cel.matches(c, DRIVER, ATTRS, CAPS))
        .isInstanceOf(CelSelectors.EvalException.class);
  }

  @Test
  void costLimit() {
    CelSelectors small = new CelSelectors(1000);
    CelSelectors.Compiled c =
        small.compile(
            "[1,2,3,4,5,6,7,8,9,10].all(x, [1,2,3,4,5,6,7,8,9,10].all(y, [1,2,3,4,5,6,7,8,9,10].all(z, x + y + z > 0)))");
    assertThat(c.error()).isNull();
    assertThatThrownBy(() -> small.matches(c, DRIVER, ATTRS, CAPS))
        .isInstanceOf(CelSelectors.EvalException.class)
        .hasMessage("operation cancelled: actual cost limit exceeded");
  }

  @Test
  void outcomesAreKeptPerDeviceContentAndErrorsAreRaisedEveryTime() throws Exception {
    CelSelectors.Compiled model =
        cel.compile("device.attributes['gpu.example.com'].model == 'a100'");
    // the same expression on the same maps: the same outcome, again
    assertThat(cel.matches(model, DRIVER, ATTRS, CAPS)).isTrue();
    assertThat(cel.matches(model, DRIVER, ATTRS, CAPS)).isTrue();
    // other maps (another device) are evaluated on their own content
    Map<String, V1DeviceAttribute> other = Map.of("model", new V1DeviceAttribute().string("h100"));
    assertThat(cel.matches(model, DRIVER, other, CAPS)).isFalse();
    assertThat(cel.matches(model, DRIVER, ATTRS, CAPS)).isTrue();
    // the same maps under another driver name are another device content
    assertThat(cel.matches(cel.compile("device.driver == 'gpu.example.com'"), "x.io", ATTRS, CAPS))
        .isFalse();
    CelSelectors.Compiled broken = cel.compile("device.attributes['gpu.example.com'].nosuch == 1");
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> cel.matches(broken, DRIVER, ATTRS, CAPS))
          .isInstanceOf(CelSelectors.EvalException.class);
    }
  }
}
