package io.kubesched.core.cluster;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonDeserializer;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSerializer;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ObjectCopier} makes deep copies of client-java model objects and of generic
 * (custom-object) maps, and shallow copies for new revisions of objects treated as immutable.
 *
 * <p>The client's own {@code JSON} serializer validates required fields, which test objects often
 * lack, so a plain reflective Gson is used; {@code Quantity} and {@code IntOrString} carry their
 * own adapters.
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

  /** The no-arg constructor and the instance fields of a model class, made accessible once. */
  private record Layout(Constructor<?> constructor, Field[] fields) {}

  private static final ClassValue<Layout> LAYOUTS =
      new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> type) {
          try {
            Constructor<?> ctor = type.getDeclaredConstructor();
            ctor.setAccessible(true);
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
              for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                  f.setAccessible(true);
                  fields.add(f);
                }
              }
            }
            return new Layout(ctor, fields.toArray(Field[]::new));
          } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("no no-arg constructor: " + type.getName(), e);
          }
        }
      };

  private ObjectCopier() {}

  /**
   * Returns a shallow copy of {@code obj} (a client-java model object with a no-arg constructor),
   * or {@code null}: a new instance whose fields refer to the same values. Meant for a new revision
   * of an object that is never modified in place: replace the fields that change, never modify what
   * they refer to.
   */
  @SuppressWarnings("unchecked")
  public static <T> T shallowCopy(T obj) {
    if (obj == null) {
      return null;
    }
    Layout layout = LAYOUTS.get(obj.getClass());
    try {
      T copy = (T) layout.constructor().newInstance();
      for (Field f : layout.fields()) {
        f.set(copy, f.get(obj));
      }
      return copy;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot copy " + obj.getClass().getName(), e);
    }
  }

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
