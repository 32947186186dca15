package io.kubesched.core.cluster;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonDeserializer;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSerializer;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ObjectCopier} makes deep copies of client-java model objects and of generic
 * (custom-object) maps.
 *
 * <p>The client's own {@code JSON} serializer validates required fields, which test objects
 * often lack, so a plain reflective Gson is used; {@code Quantity} and {@code IntOrString} carry
 * their own adapters.
 */
public final class ObjectCopier {
  private static final Gson GSON =
      new GsonBuilder()
          .registerTypeAdapter(
              OffsetDateTime.class,
              (JsonSerializer<OffsetDateTime>) (t, type, ctx) -> new JsonPrimitive(t.toString()))
          .registerTypeAdapter(
              OffsetDateTime.class,
              (JsonDeserializer<OffsetDateTime>)
                  (json, type, ctx) -> OffsetDateTime.parse(json.getAsString()))
          .create();

  private ObjectCopier() {}

  /** Returns a deep copy of {@code obj} (a client-java model object), or {@code null}. */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T obj) {
    if (obj == null) {
      return null;
    }
    return (T) GSON.fromJson(GSON.toJsonTree(obj), obj.getClass());
  }

  /** Returns a deep copy of a generic map as decoded from YAML or JSON. */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> copyMap(Map<String, ?> map) {
    return (Map<String, Object>) copyValue(map);
  }

  private static Object copyValue(Object value) {
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : m.entrySet()) {
        out.put(String.valueOf(e.getKey()), copyValue(e.getValue()));
      }
      return out;
    }
    if (value instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      for (Object o : l) {
        out.add(copyValue(o));
      }
      return out;
    }
    return value;
  }
}
