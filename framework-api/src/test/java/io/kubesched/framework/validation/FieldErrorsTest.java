package io.kubesched.framework.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.FieldError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** kube's {@code field.Error} bodies and name checks. */
final class FieldErrorsTest {
  @Test
  void valuesPrintAsGoPrintsThem() {
    assertThat(FieldErrors.invalid("a", "x\"y", "bad").toString())
        .isEqualTo("a: Invalid value: \"x\\\"y\": bad");
    assertThat(FieldErrors.invalid("a", 3, "bad").toString()).isEqualTo("a: Invalid value: 3: bad");
    assertThat(FieldErrors.invalid("a", List.of("p", "q"), "").toString())
        .isEqualTo("a: Invalid value: [\"p\", \"q\"]");
    assertThat(FieldErrors.invalid("a", FieldErrors.stringSlice(List.of("p", "q")), "bad"))
        .isEqualTo(new FieldError("a", "Invalid value: []string{\"p\", \"q\"}: bad"));
    assertThat(FieldErrors.invalid("a", new FieldErrors.Raw("10s"), "bad").toString())
        .isEqualTo("a: Invalid value: 10s: bad");
  }

  @Test
  void kindsOfErrors() {
    assertThat(FieldErrors.required("a", "").toString()).isEqualTo("a: Required value");
    assertThat(FieldErrors.duplicate("a", "x").toString()).isEqualTo("a: Duplicate value: \"x\"");
    assertThat(FieldErrors.forbidden("a", "no").toString()).isEqualTo("a: Forbidden: no");
    assertThat(FieldErrors.notSupported("a", "z", "x", "y"))
        .isEqualTo(FieldErrors.notSupported("a", "z", List.of("x", "y")))
        .hasToString("a: Unsupported value: \"z\": supported values: \"x\", \"y\"");
    assertThat(FieldErrors.child(FieldErrors.index("p", 2), "q")).isEqualTo("p[2].q");
    assertThat(FieldErrors.child("", "q")).isEqualTo("q");
  }

  @Test
  void labelNames() {
    assertThat(QualifiedNames.validateLabelName("example.com/zone", "k")).isEmpty();
    assertThat(QualifiedNames.validateLabelName("a/b/c", "k"))
        .singleElement()
        .extracting(FieldError::path)
        .isEqualTo("k");
    assertThat(QualifiedNames.isExtendedResourceName("example.com/gpu")).isTrue();
    assertThat(QualifiedNames.isExtendedResourceName("cpu")).isFalse();
  }
}
