package io.kubesched.cli.validation;

import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Checks a YAML/JSON tree against a Kubernetes model class before it is decoded, as the API
 * server's strict decoding does: every field known ({@code unknown field "spec.foo"}), of the right
 * JSON type ({@code invalid type: got "array", expected "map"}), integers within their range,
 * quantities in apimachinery's grammar, and the fields the OpenAPI schema requires present. Every
 * problem carries the field's full path, so that no decoder exception text reaches the user; an
 * unknown field's error has an empty path and names the field in its message, as kube's strict
 * decoding error does. A quantity apimachinery accepts but client-java's {@code Quantity} cannot
 * hold as text ({@code 2Ei}, {@code .}) is rewritten in place to its exact decimal value.
 */
public final class TypeCheck {
  private static final String MODELS = "io.kubernetes.client.openapi.models.";
  private static final BigInteger INT32_MIN = BigInteger.valueOf(Integer.MIN_VALUE);
  private static final BigInteger INT32_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  /** The fields of each model class seen so far, by serialized name. */
  private final Map<Class<?>, Map<String, Field>> fields = new HashMap<>();

  /** The fields each model class requires, as its OpenAPI schema says. */
  private final Map<Class<?>, Set<String>> required = new HashMap<>();

  /** Creates a checker (it caches the models' fields; not thread-safe). */
  public TypeCheck() {}

  /** Returns every problem of {@code tree} as an object of {@code model}; empty when it fits. */
  public List<FieldError> check(Map<String, Object> tree, Class<?> model) {
    List<FieldError> out = new java.util.ArrayList<>();
    checkValue(tree, model, "", out, v -> {});
    return out;
  }

  private void checkValue(
      Object raw, Type type, String path, List<FieldError> out, Consumer<Object> replace) {
    if (raw == null) {
      return;
    }
    Class<?> cls = rawClass(type);
    if (cls == String.class) {
      if (!(raw instanceof String)) {
        out.add(typeError(path, raw, "string"));
      }
    } else if (cls == Integer.class || cls == int.class) {
      integer(raw, path, INT32_MIN, INT32_MAX, "int32", out);
    } else if (cls == Long.class || cls == long.class) {
      integer(raw, path, INT64_MIN, INT64_MAX, "int64", out);
    } else if (cls == Boolean.class || cls == boolean.class) {
      if (!(raw instanceof Boolean)) {
        out.add(typeError(path, raw, "boolean"));
      }
    } else if (cls == Double.class || cls == Float.class) {
      if (!(raw instanceof Number)) {
        out.add(typeError(path, raw, "number"));
      }
    } else if (cls == Quantity.class) {
      if (!(raw instanceof String) && !(raw instanceof Number)) {
        out.add(typeError(path, raw, "string"));
      } else {
        try {
          BigDecimal value = QuantityText.parse(String.valueOf(raw));
          if (!clientReads(String.valueOf(raw))) {
            // the client's Quantity cannot hold this text (e.g. "2Ei", "."): its exact value
            replace.accept(value.stripTrailingZeros().toPlainString());
          }
        } catch (QuantityText.InvalidQuantityException e) {
          out.add(FieldErrors.invalid(path, String.valueOf(raw), e.getMessage()));
        }
      }
    } else if (cls == IntOrString.class) {
      if (raw instanceof Number) {
        integer(raw, path, INT32_MIN, INT32_MAX, "int32", out);
      } else if (!(raw instanceof String)) {
        out.add(typeError(path, raw, "integer or string"));
      }
    } else if (cls == OffsetDateTime.class || cls == byte[].class) {
      if (!(raw instanceof String)) {
        out.add(typeError(path, raw, "string"));
      }
    } else if (List.class.isAssignableFrom(cls) || Set.class.isAssignableFrom(cls)) {
      if (!(raw instanceof List<?> list)) {
        out.add(typeError(path, raw, "array"));
        return;
      }
      Type element = typeArgument(type, 0);
      for (int i = 0; i < list.size(); i++) {
        int index = i;
        @SuppressWarnings("unchecked")
        List<Object> items = (List<Object>) list;
        checkValue(list.get(i), element, FieldErrors.index(path, i), out, v -> items.set(index, v));
      }
    } else if (Map.class.isAssignableFrom(cls)) {
      if (!(raw instanceof Map<?, ?> map)) {
        out.add(typeError(path, raw, "map"));
        return;
      }
      Type value = typeArgument(type, 1);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        @SuppressWarnings("unchecked")
        Map.Entry<Object, Object> entry = (Map.Entry<Object, Object>) e;
        checkValue(
            e.getValue(),
            value,
            FieldErrors.child(path, String.valueOf(e.getKey())),
            out,
            entry::setValue);
      }
    } else if (cls.getName().startsWith(MODELS)) {
      if (!(raw instanceof Map<?, ?> map)) {
        out.add(typeError(path, raw, "object"));
        return;
      }
      model(map, cls, path, out);
    }
    // anything else (Object: free-form JSON) is accepted as it is
  }

  private void model(Map<?, ?> map, Class<?> cls, String path, List<FieldError> out) {
    Map<String, Field> known = fields.computeIfAbsent(cls, TypeCheck::fieldsOf);
    for (Map.Entry<?, ?> e : map.entrySet()) {
      String name = String.valueOf(e.getKey());
      Field f = known.get(name);
      String p = FieldErrors.child(path, name);
      if (f == null) {
        out.add(new FieldError("", "unknown field " + FieldErrors.quote(p)));
        continue;
      }
      @SuppressWarnings("unchecked")
      Map.Entry<Object, Object> entry = (Map.Entry<Object, Object>) e;
      checkValue(e.getValue(), f.getGenericType(), p, out, entry::setValue);
    }
    for (String name : required.computeIfAbsent(cls, TypeCheck::requiredFields)) {
      if (map.get(name) == null) {
        out.add(FieldErrors.required(FieldErrors.child(path, name), ""));
      }
    }
  }

  /** Whether client-java's {@code Quantity} parses {@code text} and can print it back. */
  private static boolean clientReads(String text) {
    try {
      Quantity.fromString(text.trim()).toSuffixedString();
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static void integer(
      Object raw, String path, BigInteger min, BigInteger max, String type, List<FieldError> out) {
    BigInteger v;
    if (raw instanceof Integer || raw instanceof Long || raw instanceof Short) {
      v = BigInteger.valueOf(((Number) raw).longValue());
    } else if (raw instanceof BigInteger b) {
      v = b;
    } else if (raw instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
      v = java.math.BigDecimal.valueOf(d).toBigInteger();
    } else {
      out.add(typeError(path, raw, "integer"));
      return;
    }
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      out.add(
          FieldErrors.invalid(
              path,
              new FieldErrors.Raw(v.toString()),
              "must fit in a " + type.substring(3) + "-bit integer"));
    }
  }

  private static FieldError typeError(String path, Object raw, String expected) {
    return new FieldError(
        path,
        "invalid type: got "
            + FieldErrors.quote(jsonType(raw))
            + ", expected "
            + FieldErrors.quote(expected));
  }

  private static String jsonType(Object raw) {
    if (raw instanceof Map) {
      return "map";
    }
    if (raw instanceof Collection) {
      return "array";
    }
    if (raw instanceof Boolean) {
      return "boolean";
    }
    if (raw instanceof Integer || raw instanceof Long || raw instanceof BigInteger) {
      return "integer";
    }
    if (raw instanceof Number) {
      return "number";
    }
    return "string";
  }

  private static Map<String, Field> fieldsOf(Class<?> cls) {
    Map<String, Field> out = new LinkedHashMap<>();
    for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        SerializedName sn = f.getAnnotation(SerializedName.class);
        if (sn != null && !Modifier.isStatic(f.getModifiers())) {
          out.putIfAbsent(sn.value(), f);
        }
      }
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Set<String> requiredFields(Class<?> cls) {
    try {
      Field f = cls.getField("openapiRequiredFields");
      Object v = f.get(null);
      return v instanceof Set<?> s ? Set.copyOf((Set<String>) s) : Set.of();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return Set.of();
    }
  }

  private static Class<?> rawClass(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p) {
      return (Class<?>) p.getRawType();
    }
    return Object.class;
  }

  private static Type typeArgument(Type t, int i) {
    if (t instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
      return p.getActualTypeArguments()[i];
    }
    return Object.class;
  }
}
