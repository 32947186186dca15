package io.kubesched.core.cluster;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonDeserializer;
import com.google.gson.JsonPrimitive;
import com.google.gson.JsonSerializer;
import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
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

  /**
   * The instance fields of a model class and how to make a bare instance of it, made accessible
   * once. A bare instance skips the class's constructor: a model's field initialisers allocate
   * default collections (a pod spec has fifteen) that a shallow copy would overwrite at once.
   */
  private record Layout(Constructor<?> constructor, Field[] fields) {}

  private static final ClassValue<Layout> LAYOUTS =
      new ClassValue<>() {
        @Override
        protected Layout computeValue(Class<?> type) {
          List<Field> fields = new ArrayList<>();
          for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
              if (!Modifier.isStatic(f.getModifiers())) {
                f.setAccessible(true);
                fields.add(f);
              }
            }
          }
          return new Layout(bareConstructor(type), fields.toArray(Field[]::new));
        }
      };

  /**
   * Returns a constructor of {@code type} that runs only {@code Object}'s constructor (the JDK's
   * {@code ReflectionFactory}, as serialization libraries use), or the no-arg constructor where the
   * JDK offers none.
   */
  private static Constructor<?> bareConstructor(Class<?> type) {
    try {
      Constructor<?> bare =
          sun.reflect.ReflectionFactory.getReflectionFactory()
              .newConstructorForSerialization(type, Object.class.getDeclaredConstructor());
      if (bare != null) {
        bare.setAccessible(true);
        return bare;
      }
    } catch (NoSuchMethodException | RuntimeException | LinkageError e) {
      // fall back to the no-arg constructor
    }
    try {
      Constructor<?> ctor = type.getDeclaredConstructor();
      ctor.setAccessible(true);
      return ctor;
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException("no no-arg constructor: " + type.getName(), e);
    }
  }

  private ObjectCopier() {}

  /** Returns a new instance of model class {@code type} made without running its constructor. */
  @SuppressWarnings("unchecked")
  static <T> T bare(Class<T> type) {
    try {
      return (T) LAYOUTS.get(type).constructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make " + type.getName(), e);
    }
  }

  /**
   * Returns a shallow copy of {@code obj} (a client-java model object), or {@code null}: a new
   * instance, made without running its constructor, whose every field refers to the same value.
   * Meant for a new revision of an object that is never modified in place: replace the fields that
   * change, never modify what they refer to.
   */
  @SuppressWarnings("unchecked")
  public static <T> T shallowCopy(T obj) {
    if (obj == null) {
      return null;
    }
    Class<?> type = obj.getClass();
    if (type == V1Pod.class) {
      return (T) ModelRevisions.pod((V1Pod) obj);
    } else if (type == V1ObjectMeta.class) {
      return (T) ModelRevisions.metadata((V1ObjectMeta) obj);
    } else if (type == V1PodSpec.class) {
      return (T) ModelRevisions.spec((V1PodSpec) obj);
    } else if (type == V1PodStatus.class) {
      return (T) ModelRevisions.status((V1PodStatus) obj);
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

  /**
   * Returns a deep copy of {@code obj} (a client-java model object), or {@code null}.
   *
   * <p>The copy is the one the Gson round trip ({@code fromJson(toJsonTree(obj))}) makes, made
   * directly field by field: a new model object from its no-arg constructor (so its defaults, e.g.
   * empty lists, stay where the source field is {@code null}), every non-null field copied; lists
   * become {@code ArrayList}s (null elements kept), maps insertion-ordered maps without null
   * values; immutable values (strings, numbers, booleans, enums, {@code OffsetDateTime}, {@code
   * IntOrString}) are shared and a {@code Quantity} is replaced by the one its JSON form parses to.
   * Anything else goes through Gson. The cluster copies every object it stores, so this is on the
   * hot path of every create, bind and status patch.
   */
  @SuppressWarnings("unchecked")
  public static <T> T deepCopy(T obj) {
    if (obj == null) {
      return null;
    }
    return (T) copy(obj, SHAPES.get(obj.getClass()));
  }

  /**
   * Returns the Gson round trip of {@code obj}, the reference {@link #deepCopy} matches (tests).
   */
  @SuppressWarnings("unchecked")
  static <T> T gsonCopy(T obj) {
    return obj == null ? null : (T) GSON.fromJson(GSON.toJsonTree(obj), obj.getClass());
  }

  private static final String MODELS = "io.kubernetes.client.openapi.models.";
  private static final int QUANTITY_CACHE_LIMIT = 4096;
  private static final java.util.concurrent.ConcurrentHashMap<QuantityKey, Quantity> QUANTITIES =
      new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The copy plan of one model class: how to make an instance, its serialized fields, their
   * declared types and the values its no-arg constructor gives them.
   *
   * <p>A copy is what the constructor makes with every non-null field of the source copied over it.
   * When the constructor sets nothing but those fields (true of client-java's models), the copy is
   * made bare instead ({@code ctor} is then {@link #bareConstructor}): each field gets a copy of
   * the source's value, or, where that is null, a copy of the constructor's value (a fresh empty
   * list where the constructor makes one). The constructor's own defaults, which the source's
   * values would overwrite at once, are then not made.
   *
   * @param defaults each field's value in a new instance (null where none)
   */
  private record ModelPlan(
      java.lang.reflect.Constructor<?> ctor,
      boolean bare,
      Field[] fields,
      Shape[] shapes,
      Object[] defaults) {}

  /**
   * A declared type resolved once: the type, its raw class, its first two type arguments (wildcards
   * replaced by their upper bound; {@link #OBJECT} where absent) and how a value of it is copied.
   * Reading type arguments from a {@code ParameterizedType} clones an array on every call.
   */
  private record Shape(Type type, Class<?> raw, Shape arg0, Shape arg1, Kind kind) {
    static Shape of(Type t) {
      if (t == Object.class) {
        return OBJECT;
      }
      Shape a0 = OBJECT;
      Shape a1 = OBJECT;
      if (t instanceof ParameterizedType p) {
        Type[] args = p.getActualTypeArguments();
        a0 = args.length > 0 ? of(upperBound(args[0])) : OBJECT;
        a1 = args.length > 1 ? of(upperBound(args[1])) : OBJECT;
      }
      Class<?> raw = rawType(t);
      return new Shape(t, raw, a0, a1, Kind.of(raw, a0));
    }
  }

  /**
   * How a value of a declared type is copied, decided once per type; a value whose class does not
   * fit its kind is copied as {@link #DYNAMIC}. Each kind copies in its own method, called through
   * the kind: the JIT then compiles each on its own rather than the whole recursion as one.
   */
  private enum Kind {
    /** Immutable (strings, boxed numbers, booleans, enums, times, {@code IntOrString}): shared. */
    SHARED {
      @Override
      Object copy(Object value, Shape shape) {
        return value;
      }
    },
    /** A {@code Quantity}: the one its JSON form decodes to. */
    QUANTITY {
      @Override
      Object copy(Object value, Shape shape) {
        return value instanceof Quantity q ? quantity(q) : copyDynamic(value, shape);
      }
    },
    /** A {@code List} or {@code Collection}: an {@code ArrayList} of copies. */
    LIST {
      @Override
      Object copy(Object value, Shape shape) {
        return value instanceof List<?> list
            ? copyList(list, shape.arg0())
            : copyDynamic(value, shape);
      }
    },
    /** A {@code Map} with {@code String} keys: an insertion-ordered map of copies. */
    MAP {
      @Override
      Object copy(Object value, Shape shape) {
        return value instanceof Map<?, ?> map
            ? copyMap(map, shape.arg1())
            : copyDynamic(value, shape);
      }
    },
    /** A client-java model class: a new instance, field by field. */
    MODEL {
      @Override
      Object copy(Object value, Shape shape) {
        Object out = value.getClass() == shape.raw() ? copyModel(value, shape.raw()) : null;
        return out != null ? out : copyDynamic(value, shape);
      }
    },
    /** Anything else: decided from the value's class. */
    DYNAMIC {
      @Override
      Object copy(Object value, Shape shape) {
        return copyDynamic(value, shape);
      }
    };

    /** Returns a copy of {@code value} (not null) declared as {@code shape}. */
    abstract Object copy(Object value, Shape shape);

    static Kind of(Class<?> raw, Shape arg0) {
      if (raw == String.class
          || raw == Boolean.class
          || raw == Integer.class
          || raw == Long.class
          || raw == Double.class
          || raw == Float.class
          || raw == Short.class
          || raw == Byte.class
          || raw == Character.class
          || raw == java.math.BigDecimal.class
          || raw == java.math.BigInteger.class
          || raw == OffsetDateTime.class
          || raw == IntOrString.class
          || raw.isEnum()) {
        return SHARED;
      }
      if (raw == Quantity.class) {
        return QUANTITY;
      }
      if (raw == List.class || raw == java.util.Collection.class) {
        return LIST;
      }
      if (raw == Map.class && arg0.type() == String.class) {
        return MAP;
      }
      if (raw.getName().startsWith(MODELS)) {
        return MODEL;
      }
      return DYNAMIC;
    }
  }

  private static final Shape OBJECT =
      new Shape(Object.class, Object.class, null, null, Kind.DYNAMIC);

  private static final ClassValue<Shape> SHAPES =
      new ClassValue<>() {
        @Override
        protected Shape computeValue(Class<?> type) {
          return Shape.of(type);
        }
      };

  private static final ClassValue<ModelPlan> PLANS =
      new ClassValue<>() {
        @Override
        protected ModelPlan computeValue(Class<?> type) {
          try {
            java.lang.reflect.Constructor<?> ctor = type.getDeclaredConstructor();
            ctor.setAccessible(true);
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
              for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isStatic(m) || Modifier.isTransient(m) || f.isSynthetic()) {
                  continue;
                }
                f.setAccessible(true);
                fields.add(f);
              }
            }
            Field[] fs = fields.toArray(new Field[0]);
            Shape[] ss = new Shape[fs.length];
            for (int i = 0; i < fs.length; i++) {
              ss[i] = Shape.of(fs[i].getGenericType());
            }
            Object fresh = ctor.newInstance();
            Object[] defaults = new Object[fs.length];
            for (int i = 0; i < fs.length; i++) {
              defaults[i] = fs[i].get(fresh);
            }
            if (onlyPlannedFieldsSet(type, fresh, fields)) {
              return new ModelPlan(bareConstructor(type), true, fs, ss, defaults);
            }
            return new ModelPlan(ctor, false, fs, ss, defaults);
          } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
          }
        }
      };

  /**
   * Returns whether {@code fresh}, a new instance of {@code type}, has no value set outside the
   * {@code planned} fields (a transient or synthetic field its constructor sets).
   */
  private static boolean onlyPlannedFieldsSet(Class<?> type, Object fresh, List<Field> planned)
      throws IllegalAccessException {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        if (Modifier.isStatic(f.getModifiers()) || planned.contains(f)) {
          continue;
        }
        if (f.getType().isPrimitive()) {
          return false;
        }
        f.setAccessible(true);
        if (f.get(fresh) != null) {
          return false;
        }
      }
    }
    // (a planned primitive field is never null in the source, so a copy always sets it)
    return true;
  }

  private static Object copy(Object value, Shape shape) {
    return shape.kind().copy(value, shape);
  }

  private static List<Object> copyList(List<?> list, Shape elem) {
    List<Object> out = new ArrayList<>(list.size());
    for (int i = 0, n = list.size(); i < n; i++) {
      Object e = list.get(i);
      out.add(e == null ? null : copy(e, elem));
    }
    return out;
  }

  private static Map<Object, Object> copyMap(Map<?, ?> map, Shape value) {
    Map<Object, Object> out = new LinkedHashMap<>(Math.max(4, map.size() * 2));
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getKey() != null && e.getValue() != null) {
        out.put(e.getKey(), copy(e.getValue(), value));
      }
    }
    return out;
  }

  /**
   * Returns a copy of model object {@code value} of class {@code c}, or null when it has no plan.
   */
  private static Object copyModel(Object value, Class<?> c) {
    ModelPlan plan = PLANS.get(c);
    if (plan == null) {
      return null;
    }
    try {
      Object out = plan.ctor().newInstance();
      Field[] fs = plan.fields();
      Shape[] shapes = plan.shapes();
      Object[] defaults = plan.defaults();
      boolean bare = plan.bare();
      for (int i = 0; i < fs.length; i++) {
        Object v = fs[i].get(value);
        if (v == null && bare) {
          v = defaults[i];
        }
        if (v != null) {
          fs[i].set(out, copy(v, shapes[i]));
        }
      }
      return out;
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /**
   * Copies a value whose declared type did not decide how: by its class, as the Gson round trip.
   */
  private static Object copyDynamic(Object value, Shape shape) {
    Class<?> c = value.getClass();
    Type declared = shape.type();
    if (declared != c && shape.raw() == Object.class) {
      // Declared as Object: Gson re-reads it as maps, lists, doubles, strings and booleans.
      return GSON.fromJson(GSON.toJsonTree(value), declared);
    }
    if (value instanceof String
        || value instanceof Boolean
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double
        || value instanceof Float
        || value instanceof Short
        || value instanceof Byte
        || value instanceof Character
        || value instanceof java.math.BigDecimal
        || value instanceof java.math.BigInteger
        || value instanceof OffsetDateTime
        || value instanceof IntOrString
        || c.isEnum()) {
      return value;
    }
    if (value instanceof Quantity q) {
      return quantity(q);
    }
    Class<?> raw = shape.raw();
    if (value instanceof List<?> list && (raw == List.class || raw == java.util.Collection.class)) {
      return copyList(list, shape.arg0());
    }
    if (value instanceof Map<?, ?> map && raw == Map.class && shape.arg0().type() == String.class) {
      return copyMap(map, shape.arg1());
    }
    if (c.getName().startsWith(MODELS) && (declared == c || raw == c)) {
      Object out = copyModel(value, c);
      if (out != null) {
        return out;
      }
    }
    return GSON.fromJson(GSON.toJsonTree(value), declared);
  }

  /**
   * Returns the quantity the JSON form of {@code q} decodes to (immutable, so shared). The form is
   * a function of the number (with its scale) and the format, so the decoded quantity is cached by
   * those, without printing the form each time.
   */
  private static Quantity quantity(Quantity q) {
    QuantityKey key = new QuantityKey(q.getNumber(), q.getFormat());
    Quantity cached = QUANTITIES.get(key);
    if (cached != null) {
      return cached;
    }
    Quantity parsed = Quantity.fromString(q.toSuffixedString());
    if (QUANTITIES.size() < QUANTITY_CACHE_LIMIT) {
      QUANTITIES.putIfAbsent(key, parsed);
    }
    return parsed;
  }

  /**
   * A quantity's number (equal with its scale, as {@link java.math.BigDecimal#equals}) and format.
   */
  private record QuantityKey(java.math.BigDecimal number, Quantity.Format format) {
    // written out: a record's generated equals and hashCode go through method handles, slow until
    // the JIT has compiled the caller, and every copied quantity is looked up
    @Override
    public boolean equals(Object o) {
      return o instanceof QuantityKey k && format == k.format && number.equals(k.number);
    }

    @Override
    public int hashCode() {
      return 31 * number.hashCode() + java.util.Objects.hashCode(format);
    }
  }

  private static Class<?> rawType(Type t) {
    if (t instanceof Class<?> c) {
      return c;
    }
    if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> c) {
      return c;
    }
    return Object.class;
  }

  private static Type upperBound(Type a) {
    return a instanceof java.lang.reflect.WildcardType w ? w.getUpperBounds()[0] : a;
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
