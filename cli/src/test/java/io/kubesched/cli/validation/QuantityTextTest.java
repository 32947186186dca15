package io.kubesched.cli.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** apimachinery's {@code TestQuantityParse} cases (valid values, invalid strings) and errors. */
final class QuantityTextTest {
  static Stream<Arguments> valid() {
    return Stream.of(
        Arguments.argumentSet("zero", "0", "0"),
        Arguments.argumentSet("zero nano", "0n", "0"),
        Arguments.argumentSet("zero binary", "0Ki", "0"),
        Arguments.argumentSet("decimal fraction", "1.1", "1.1"),
        Arguments.argumentSet("milli", "100m", "0.1"),
        Arguments.argumentSet("nano", "1n", "0.000000001"),
        Arguments.argumentSet("micro", "1u", "0.000001"),
        Arguments.argumentSet("kilo", "5k", "5000"),
        Arguments.argumentSet("exa", "1E", "1000000000000000000"),
        Arguments.argumentSet("kibi", "1Ki", "1024"),
        Arguments.argumentSet("gibi", "16Gi", "17179869184"),
        Arguments.argumentSet("exponent", "1e3", "1000"),
        Arguments.argumentSet("upper exponent", "1E3", "1000"),
        Arguments.argumentSet("negative exponent", "1e-3", "0.001"),
        Arguments.argumentSet("positive exponent sign", "1e+3", "1000"),
        Arguments.argumentSet("no integer part", ".5", "0.5"),
        Arguments.argumentSet("no fraction digits", "5.", "5"),
        Arguments.argumentSet("no fraction digits with suffix", "1.G", "1000000000"),
        Arguments.argumentSet("signs", "-1.5Gi", "-1610612736"),
        Arguments.argumentSet("plus", "+1", "1"),
        Arguments.argumentSet("rounded up to nano", "0.0000000001", "0.000000001"),
        Arguments.argumentSet("binary fraction", "0.5Ki", "512"),
        Arguments.argumentSet("huge decimal kept exact", "1e30", "1000000000000000000000000000000"),
        Arguments.argumentSet("huge binary capped", "16Ei", "9223372036854775807"),
        Arguments.argumentSet("surrounding whitespace trimmed (UnmarshalJSON)", " 1 ", "1"));
  }

  @ParameterizedTest
  @MethodSource("valid")
  void parsesAsApimachinery(String text, String value) {
    assertThat(QuantityText.parse(text)).isEqualByComparingTo(new BigDecimal(value));
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        Arguments.argumentSet("two dots", "1.1.M", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("sign inside", "1+1.0M", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("milli-i", "0.1mi", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("unknown letter", "0.1am", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("words", "aoeu", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("i alone", ".5i", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("one i", "1i", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("negative i", "-3.01i", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("dangling exponent sign", "-3.01e-", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("dangling exponent", "1e", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("exponent beyond int32", "1e3000000000", QuantityText.ERR_SUFFIX),
        Arguments.argumentSet("units", "1GB", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("inner space", "4 cores", QuantityText.ERR_FORMAT),
        Arguments.argumentSet("empty", "", QuantityText.ERR_FORMAT));
  }

  @ParameterizedTest
  @MethodSource("invalid")
  void refusesWithApimachinerysMessage(String text, String message) {
    assertThatThrownBy(() -> QuantityText.parse(text))
        .isInstanceOf(QuantityText.InvalidQuantityException.class)
        .hasMessage(message);
  }
}
