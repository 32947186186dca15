package io.kubesched.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The written-out shallow copies of {@link ModelRevisions} copy every field of their class: each
 * field of the source is set, and the copy must refer to the very same value. A field client-java
 * adds fails here until it is copied.
 */
final class ModelRevisionsTest {

  static Stream<Arguments> copies() {
    return Stream.of(
        Arguments.of("V1Pod", V1Pod.class, copy(ModelRevisions::pod)),
        Arguments.of("V1ObjectMeta", V1ObjectMeta.class, copy(ModelRevisions::metadata)),
        Arguments.of("V1PodSpec", V1PodSpec.class, copy(ModelRevisions::spec)),
        Arguments.of("V1PodStatus", V1PodStatus.class, copy(ModelRevisions::status)),
        Arguments.of("V1Pod through shallowCopy", V1Pod.class, copy(ObjectCopier::shallowCopy)),
        Arguments.of(
            "V1PodSpec through shallowCopy", V1PodSpec.class, copy(ObjectCopier::shallowCopy)));
  }

  @SuppressWarnings("unchecked")
  private static <T> UnaryOperator<Object> copy(UnaryOperator<T> f) {
    return o -> f.apply((T) o);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("copies")
  void everyFieldIsCopied(String name, Class<?> type, UnaryOperator<Object> copy) throws Exception {
    Object source = ObjectCopier.bare(type);
    List<Field> fields = new ArrayList<>();
    for (Field f : type.getDeclaredFields()) {
      if (!Modifier.isStatic(f.getModifiers())) {
        f.setAccessible(true);
        f.set(source, valueOf(f.getType()));
        fields.add(f);
      }
    }

    Object out = copy.apply(source);

    List<String> notCopied = new ArrayList<>();
    for (Field f : fields) {
      if (f.get(out) != f.get(source)) {
        notCopied.add(f.getName());
      }
    }
    assertThat(List.of(out.getClass(), notCopied)).containsExactly(type, List.of());
    assertThat(fields).isNotEmpty();
  }

  /** A non-null value of {@code t}: the copy of a field it was not given stays null. */
  private static Object valueOf(Class<?> t) {
    if (t == String.class) {
      return "value";
    } else if (t == Boolean.class) {
      return Boolean.TRUE;
    } else if (t == Integer.class) {
      return 7;
    } else if (t == Long.class) {
      return 7L;
    } else if (t == List.class) {
      return new ArrayList<>();
    } else if (t == Map.class) {
      return new HashMap<>();
    } else if (t == OffsetDateTime.class) {
      return OffsetDateTime.parse("2026-11-28T00:00:00Z");
    } else if (t.isEnum()) {
      return t.getEnumConstants()[0];
    }
    return ObjectCopier.bare(t);
  }
}
