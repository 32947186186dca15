package io.kubesched.core.config;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import com.google.gson.annotations.SerializedName;
import io.kubernetes.client.openapi.JSON;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.validation.FieldErrors;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decodes plugin arguments (and the configuration itself) from the maps, lists and scalars a YAML
 * or JSON parser produces into records, strictly and with kube-style field paths.
 *
 * <p>Supported target types: {@link String}; {@code int}, {@code long}, {@code short}, {@code
 * byte}, {@code double}, {@code float}, {@code boolean} and their boxes; enums (matched on {@code
 * toString()}, then {@code name()}); {@link Duration} (Go duration strings such as {@code 10s});
 * {@link List}, {@link Set} and {@code Map<String, ?>}; records (component names are the YAML
 * keys); client-java model classes such as {@code V1NodeAffinity} (through client-java's Gson); and
 * {@code Object} (kept as parsed). Unknown fields are errors, as in kube's strict decoding.
 */
public final class ArgsCodec {
  /** The {@code apiVersion} of the configuration and of plugin args. */
  public static final String API_VERSION = "kubescheduler.config.k8s.io/v1";

  private static final String MODELS_PACKAGE = "io.kubernetes.client.";

  private ArgsCodec() {}

  /**
   * Decodes the {@code args} of {@code pluginConfig} entry for {@code provider}: checks and removes
   * {@code apiVersion} and {@code kind} ({@code <PluginName>Args}), overlays {@code userArgs} on
   * the provider's default args (maps merge recursively, lists and scalars replace, {@code null}
   * keeps the default), decodes the result into {@link PluginProvider#argsType()} and validates it.
   *
   * @param provider the plugin's provider
   * @param userArgs the YAML mapping of the args, or {@code null} when none is given
   * @param path the path of the args, e.g. {@code profiles[0].pluginConfig[1].args}
   * @param errors receives every problem found
   * @return the arguments, or {@code null} when they could not be decoded
   */
  public static <A extends PluginArgs> A decodeArgs(
      PluginProvider<A> provider,
      Map<String, Object> userArgs,
      String path,
      List<FieldError> errors) {
    Map<String, Object> user =
        userArgs == null ? new LinkedHashMap<>() : new LinkedHashMap<>(userArgs);
    Object apiVersion = user.remove("apiVersion");
    Object kind = user.remove("kind");
    String wantKind = provider.name() + "Args";
    if (kind != null && !wantKind.equals(kind)) {
      errors.add(
          FieldErrors.invalid(
              FieldErrors.child(path, "kind"), kind, "must be " + FieldErrors.quote(wantKind)));
    }
    if (apiVersion != null && !API_VERSION.equals(apiVersion)) {
      errors.add(
          FieldErrors.invalid(
              FieldErrors.child(path, "apiVersion"),
              apiVersion,
              "must be " + FieldErrors.quote(API_VERSION)));
    }
    Class<A> type = provider.argsType();
    A defaults = provider.defaultArgs();
    int before = errors.size();
    A args;
    if (type.isEnum() || !type.isRecord()) {
      // Args without fields (NoArgs and the like): only an empty mapping is acceptable.
      for (String key : user.keySet()) {
        errors.add(new FieldError(FieldErrors.child(path, key), "unknown field"));
      }
      args = defaults;
    } else {
      Object base = defaults == null ? Map.of() : encode(defaults);
      Map<String, Object> merged = overlay(asStringMap(base), user);
      args = type.cast(decode(merged, type, path, errors));
    }
    if (errors.size() > before || args == null) {
      return null;
    }
    errors.addAll(args.validate(path));
    return args;
  }

  /**
   * Returns {@code base} with {@code overlay} laid over it: nested maps merge recursively, other
   * values (lists, scalars) replace, {@code null} values in {@code overlay} are ignored. Neither
   * argument is modified.
   */
  public static Map<String, Object> overlay(Map<String, Object> base, Map<String, Object> overlay) {
    Map<String, Object> out = new LinkedHashMap<>(base);
    for (Map.Entry<String, Object> e : overlay.entrySet()) {
      Object v = e.getValue();
      if (v == null) {
        continue;
      }
      Object old = out.get(e.getKey());
      if (old instanceof Map<?, ?> om && v instanceof Map<?, ?> vm) {
        out.put(e.getKey(), overlay(asStringMap(om), asStringMap(vm)));
      } else {
        out.put(e.getKey(), v);
      }
    }
    return out;
  }

  /**
   * Converts {@code value} into the plain form the decoder reads: records become maps keyed by
   * component name (null components left out), collections become lists, client-java models become
   * their JSON maps; scalars, enums and durations are kept.
   */
  public static Object encode(Object value) {
    if (value == null) {
      return null;
    }
    Class<?> cls = value.getClass();
    if (cls.isRecord()) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (RecordComponent rc : cls.getRecordComponents()) {
        Object v;
        try {
          var accessor = rc.getAccessor();
          accessor.setAccessible(true);
          v = accessor.invoke(value);
        } catch (ReflectiveOperationException | RuntimeException e) {
          throw new IllegalStateException("cannot read " + cls.getName() + "." + rc.getName(), e);
        }
        if (v != null) {
          m.put(rc.getName(), encode(v));
        }
      }
      return m;
    }
    if (value instanceof Collection<?> c) {
      List<Object> l = new ArrayList<>(c.size());
      for (Object o : c) {
        l.add(encode(o));
      }
      return l;
    }
    if (value instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), encode(v)));
      return out;
    }
    if (isModel(cls)) {
      return fromJson(JSON.getGson().toJsonTree(value));
    }
    return value;
  }

  /**
   * Decodes {@code raw} into {@code type}.
   *
   * @param raw what the YAML parser produced (maps, lists, scalars) or {@link #encode} returned
   * @param type the target type, possibly generic
   * @param path the path of {@code raw}, for errors
   * @param errors receives every problem found
   * @return the value, or {@code null} when it could not be decoded (errors were then added)
   */
  public static Object decode(Object raw, Type type, String path, List<FieldError> errors) {
    Class<?> cls = rawClass(type);
    if (raw == null) {
      return emptyValue(cls);
    }
    if (cls == Object.class) {
      return raw;
    }
    if (cls.isInstance(raw) && isScalar(cls)) {
      return raw;
    }
    if (cls == String.class) {
      return expect(raw instanceof String, raw, raw, "expected a string", path, errors);
    }
    if (cls == int.class || cls == Integer.class) {
      Long l = integral(raw, Integer.MIN_VALUE, Integer.MAX_VALUE, path, errors);
      return l == null ? null : l.intValue();
    }
    if (cls == long.class || cls == Long.class) {
      return integral(raw, Long.MIN_VALUE, Long.MAX_VALUE, path, errors);
    }
    if (cls == short.class || cls == Short.class) {
      Long l = integral(raw, Short.MIN_VALUE, Short.MAX_VALUE, path, errors);
      return l == null ? null : l.shortValue();
    }
    if (cls == byte.class || cls == Byte.class) {
      Long l = integral(raw, Byte.MIN_VALUE, Byte.MAX_VALUE, path, errors);
      return l == null ? null : l.byteValue();
    }
    if (cls == double.class || cls == Double.class) {
      return raw instanceof Number n
          ? n.doubleValue()
          : typeError(raw, "expected a number", path, errors);
    }
    if (cls == float.class || cls == Float.class) {
      return raw instanceof Number n
          ? n.floatValue()
          : typeError(raw, "expected a number", path, errors);
    }
    if (cls == boolean.class || cls == Boolean.class) {
      return expect(raw instanceof Boolean, raw, raw, "expected a boolean", path, errors);
    }
    if (cls == Duration.class) {
      if (!(raw instanceof String s)) {
        return typeError(raw, "expected a duration string such as \"10s\"", path, errors);
      }
      try {
        return GoDuration.parse(s);
      } catch (IllegalArgumentException e) {
        return typeError(raw, e.getMessage(), path, errors);
      }
    }
    if (cls.isEnum()) {
      return decodeEnum(raw, cls, path, errors);
    }
    if (List.class.isAssignableFrom(cls) || cls == Collection.class) {
      List<Object> l = decodeList(raw, typeArgument(type, 0), path, errors);
      return l == null ? null : Collections.unmodifiableList(l);
    }
    if (Set.class.isAssignableFrom(cls)) {
      List<Object> l = decodeList(raw, typeArgument(type, 0), path, errors);
      return l == null ? null : Collections.unmodifiableSet(new LinkedHashSet<>(l));
    }
    if (Map.class.isAssignableFrom(cls)) {
      return decodeMap(raw, typeArgument(type, 1), path, errors);
    }
    if (cls.isRecord()) {
      return decodeRecord(raw, cls, path, errors);
    }
    if (isModel(cls)) {
      return decodeModel(raw, cls, path, errors);
    }
    errors.add(new FieldError(path, "cannot decode into unsupported type " + cls.getName()));
    return null;
  }

  private static boolean isScalar(Class<?> cls) {
    return cls == String.class || cls == Boolean.class || cls == Duration.class || cls.isEnum();
  }

  private static Object emptyValue(Class<?> cls) {
    if (cls == int.class) {
      return 0;
    } else if (cls == long.class) {
      return 0L;
    } else if (cls == short.class) {
      return (short) 0;
    } else if (cls == byte.class) {
      return (byte) 0;
    } else if (cls == double.class) {
      return 0d;
    } else if (cls == float.class) {
      return 0f;
    } else if (cls == boolean.class) {
      return false;
    } else if (cls == List.class || cls == Collection.class) {
      return List.of();
    } else if (cls == Set.class) {
      return Set.of();
    } else if (cls == Map.class) {
      return Map.of();
    }
    return null;
  }

  private static Object expect(
      boolean ok, Object result, Object raw, String detail, String path, List<FieldError> errors) {
    return ok ? result : typeError(raw, detail, path, errors);
  }

  private static Object typeError(Object raw, String detail, String path, List<FieldError> errors) {
    errors.add(FieldErrors.invalid(path, raw, detail));
    return null;
  }

  private static Long integral(
      Object raw, long min, long max, String path, List<FieldError> errors) {
    BigInteger v = null;
    if (raw instanceof Integer
        || raw instanceof Long
        || raw instanceof Short
        || raw instanceof Byte) {
      v = BigInteger.valueOf(((Number) raw).longValue());
    } else if (raw instanceof BigInteger b) {
      v = b;
    } else if ((raw instanceof Double || raw instanceof Float)
        && Double.isFinite(((Number) raw).doubleValue())) {
      BigDecimal d = BigDecimal.valueOf(((Number) raw).doubleValue());
      if (d.stripTrailingZeros().scale() <= 0) {
        v = d.toBigIntegerExact();
      }
    } else if (raw instanceof BigDecimal d) {
      if (d.stripTrailingZeros().scale() <= 0) {
        v = d.toBigIntegerExact();
      }
    }
    if (v == null) {
      typeError(raw, "expected an integer", path, errors);
      return null;
    }
    if (v.compareTo(BigInteger.valueOf(min)) < 0 || v.compareTo(BigInteger.valueOf(max)) > 0) {
      typeError(raw, "out of range [" + min + ", " + max + "]", path, errors);
      return null;
    }
    return v.longValue();
  }

  private static Object decodeEnum(Object raw, Class<?> cls, String path, List<FieldError> errors) {
    Object[] constants = cls.getEnumConstants();
    if (raw instanceof String s) {
      for (Object c : constants) {
        if (c.toString().equals(s)) {
          return c;
        }
      }
      for (Object c : constants) {
        if (((Enum<?>) c).name().equals(s)) {
          return c;
        }
      }
    }
    String[] valid = new String[constants.length];
    for (int i = 0; i < constants.length; i++) {
      valid[i] = constants[i].toString();
    }
    errors.add(FieldErrors.notSupported(path, raw, valid));
    return null;
  }

  private static List<Object> decodeList(
      Object raw, Type elementType, String path, List<FieldError> errors) {
    if (!(raw instanceof List<?> l)) {
      typeError(raw, "expected a list", path, errors);
      return null;
    }
    int before = errors.size();
    List<Object> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      out.add(decode(l.get(i), elementType, FieldErrors.index(path, i), errors));
    }
    return errors.size() > before ? null : out;
  }

  private static Map<String, Object> decodeMap(
      Object raw, Type valueType, String path, List<FieldError> errors) {
    if (!(raw instanceof Map<?, ?> m)) {
      typeError(raw, "expected a mapping", path, errors);
      return null;
    }
    int before = errors.size();
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String key = String.valueOf(e.getKey());
      out.put(key, decode(e.getValue(), valueType, path + "[" + key + "]", errors));
    }
    return errors.size() > before ? null : Collections.unmodifiableMap(out);
  }

  private static Object decodeRecord(
      Object raw, Class<?> cls, String path, List<FieldError> errors) {
    if (!(raw instanceof Map<?, ?> m)) {
      typeError(raw, "expected a mapping", path, errors);
      return null;
    }
    RecordComponent[] components = cls.getRecordComponents();
    Map<String, Integer> byName = new LinkedHashMap<>();
    for (int i = 0; i < components.length; i++) {
      byName.put(components[i].getName(), i);
    }
    int before = errors.size();
    for (Object key : m.keySet()) {
      if (!byName.containsKey(String.valueOf(key))) {
        errors.add(new FieldError(FieldErrors.child(path, String.valueOf(key)), "unknown field"));
      }
    }
    Object[] values = new Object[components.length];
    Class<?>[] types = new Class<?>[components.length];
    for (int i = 0; i < components.length; i++) {
      RecordComponent rc = components[i];
      types[i] = rc.getType();
      values[i] =
          decode(
              m.get(rc.getName()),
              rc.getGenericType(),
              FieldErrors.child(path, rc.getName()),
              errors);
    }
    if (errors.size() > before) {
      return null;
    }
    try {
      Constructor<?> ctor = cls.getDeclaredConstructor(types);
      ctor.setAccessible(true);
      return ctor.newInstance(values);
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      errors.add(new FieldError(path, "Invalid value: " + cause.getMessage()));
      return null;
    } catch (ReflectiveOperationException | RuntimeException e) {
      errors.add(new FieldError(path, "cannot build " + cls.getName() + ": " + e));
      return null;
    }
  }

  private static boolean isModel(Class<?> cls) {
    return cls.getName().startsWith(MODELS_PACKAGE);
  }

  private static Object decodeModel(
      Object raw, Class<?> cls, String path, List<FieldError> errors) {
    int before = errors.size();
    checkModelFields(raw, cls, path, errors);
    if (errors.size() > before) {
      return null;
    }
    try {
      JsonElement tree = JSON.getGson().toJsonTree(raw);
      return JSON.getGson().fromJson(tree, cls);
    } catch (RuntimeException e) {
      String msg = String.valueOf(e.getMessage());
      int json = msg.indexOf(" JSON: ");
      errors.add(
          new FieldError(path, "Invalid value: " + (json < 0 ? msg : msg.substring(0, json))));
      return null;
    }
  }

  /** Reports unknown fields of client-java models with their exact path. */
  private static void checkModelFields(
      Object raw, Type type, String path, List<FieldError> errors) {
    Class<?> cls = rawClass(type);
    if (raw instanceof List<?> l && List.class.isAssignableFrom(cls)) {
      Type element = typeArgument(type, 0);
      for (int i = 0; i < l.size(); i++) {
        checkModelFields(l.get(i), element, FieldErrors.index(path, i), errors);
      }
      return;
    }
    if (!(raw instanceof Map<?, ?> m) || !isModel(cls)) {
      return;
    }
    Map<String, Field> fields = new LinkedHashMap<>();
    for (Class<?> c = cls; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        SerializedName sn = f.getAnnotation(SerializedName.class);
        if (sn != null && !Modifier.isStatic(f.getModifiers())) {
          fields.putIfAbsent(sn.value(), f);
        }
      }
    }
    if (fields.isEmpty()) {
      return; // not a generated model (Quantity, IntOrString, ...): Gson decides
    }
    for (Map.Entry<?, ?> e : m.entrySet()) {
      String key = String.valueOf(e.getKey());
      Field f = fields.get(key);
      String child = FieldErrors.child(path, key);
      if (f == null) {
        errors.add(new FieldError(child, "unknown field"));
      } else {
        checkModelFields(e.getValue(), f.getGenericType(), child, errors);
      }
    }
  }

  private static Object fromJson(JsonElement e) {
    if (e == null || e.isJsonNull()) {
      return null;
    }
    if (e instanceof JsonObject o) {
      Map<String, Object> m = new LinkedHashMap<>();
      o.entrySet().forEach(en -> m.put(en.getKey(), fromJson(en.getValue())));
      return m;
    }
    if (e instanceof JsonArray a) {
      List<Object> l = new ArrayList<>(a.size());
      a.forEach(x -> l.add(fromJson(x)));
      return l;
    }
    JsonPrimitive p = e.getAsJsonPrimitive();
    if (p.isBoolean()) {
      return p.getAsBoolean();
    }
    if (p.isNumber()) {
      BigDecimal d = p.getAsBigDecimal();
      if (d.stripTrailingZeros().scale() <= 0) {
        BigInteger i = d.toBigIntegerExact();
        return i.bitLength() < 32 ? (Object) i.intValue() : i.bitLength() < 64 ? i.longValue() : i;
      }
      return d.doubleValue();
    }
    return p.getAsString();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> asStringMap(Object o) {
    if (o instanceof Map<?, ?> m) {
      boolean allStrings = m.keySet().stream().allMatch(k -> k instanceof String);
      if (allStrings) {
        return (Map<String, Object>) m;
      }
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, v) -> out.put(String.valueOf(k), v));
      return out;
    }
    return Map.of();
  }

  private static Class<?> rawClass(Type type) {
    if (type instanceof Class<?> c) {
      return c;
    }
    if (type instanceof ParameterizedType p) {
      return rawClass(p.getRawType());
    }
    if (type instanceof WildcardType w) {
      return rawClass(w.getUpperBounds()[0]);
    }
    return Object.class;
  }

  private static Type typeArgument(Type type, int i) {
    if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > i) {
      return p.getActualTypeArguments()[i];
    }
    return Object.class;
  }
}
