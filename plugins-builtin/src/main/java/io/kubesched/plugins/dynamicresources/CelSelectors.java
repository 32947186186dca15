package io.kubesched.plugins.dynamicresources;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceCapacity;
import io.kubesched.framework.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.AbstractMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DRA's CEL device selectors: kube's {@code dynamic-resource-allocation/cel} environment on
 * Google's CEL for Java. Expressions see {@code device.driver}, {@code
 * device.attributes["domain"].id} and {@code device.capacity["domain"].id}; an attribute or
 * capacity map of an unknown domain is empty (as in kube), an unknown id inside it is a runtime
 * error. Version attributes are semantic versions and capacities are quantities, with kube's CEL
 * {@code semver} and {@code quantity} libraries ({@code isGreaterThan}, {@code compareTo}, {@code
 * major}, {@code asInteger}, ...); {@code cel.bind} and the string extensions are there as in kube.
 *
 * <p>Evaluation has a cost limit (kube's {@code CELSelectorExpressionMaxCost}, 1,000,000): cel-java
 * 0.14 has no runtime cost tracker (nor cel-go's estimator), so the cost counted here is the number
 * of expression nodes its evaluation listener ({@code Program.trace}) reports (each comprehension
 * step counts the nodes it evaluates), and {@code comprehensionMaxIterations} bounds any one loop
 * by the same figure. cel-go charges about one unit per evaluated node too, but more for string and
 * list operations on long values, so the figure here is a lower bound of kube's. Compiled
 * expressions are cached (thread-safe).
 */
final class CelSelectors {
  /** kube's {@code resourceapi.CELSelectorExpressionMaxCost}. */
  static final long MAX_COST = 1_000_000L;

  private static final int CACHE_SIZE = 256;
  private static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  private static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");
  private static final String DEVICE_TYPE = "kubernetes.DRADevice";

  /**
   * A compiled expression, or its compile error.
   *
   * @param expression the source
   * @param program the program, null on error
   * @param error kube's {@code compilation failed: ...} text, null when it compiled
   */
  record Compiled(String expression, CelRuntime.Program program, String error) {}

  /** A runtime error (including exceeding the cost limit) of one evaluation. */
  static final class EvalException extends Exception {
    EvalException(String message) {
      super(message);
    }
  }

  /** A quantity as CEL sees it; equal when numerically equal. */
  record CelQuantity(BigDecimal value) {
    CelQuantity {
      value = value.stripTrailingZeros();
    }
  }

  private static final class CostExceeded extends RuntimeException {
    CostExceeded() {
      super(null, null, false, false);
    }
  }

  private final long costLimit;
  private final Cel cel;
  private final Map<String, Compiled> cache = new ConcurrentHashMap<>();

  /** Creates the environment with kube's cost limit. */
  CelSelectors() {
    this(MAX_COST);
  }

  /** Creates the environment with {@code costLimit}. */
  CelSelectors(long costLimit) {
    this.costLimit = costLimit;
    MapType attributes =
        MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, SimpleType.DYN));
    MapType capacity =
        MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, QUANTITY));
    Map<String, CelType> fields =
        Map.of("driver", SimpleType.STRING, "attributes", attributes, "capacity", capacity);
    StructType device =
        StructType.create(
            DEVICE_TYPE,
            com.google.common.collect.ImmutableSet.copyOf(fields.keySet()),
            name -> Optional.ofNullable(fields.get(name)));
    this.cel =
        CelFactory.standardCelBuilder()
            .setOptions(
                CelOptions.current()
                    .comprehensionMaxIterations((int) Math.min(Integer.MAX_VALUE, costLimit))
                    .build())
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .setTypeProvider(new SingleTypeProvider(device))
            .addVar("device", device)
            .addCompilerLibraries(CelExtensions.bindings(), CelExtensions.strings())
            .addRuntimeLibraries(CelExtensions.strings())
            .addFunctionDeclarations(declarations())
            .addFunctionBindings(bindings())
            .build();
  }

  /** Compiles {@code expression} (cached); a compile error is in the result. */
  Compiled compile(String expression) {
    Compiled c = cache.get(expression);
    if (c != null) {
      return c;
    }
    c = doCompile(expression);
    if (cache.size() >= CACHE_SIZE) {
      cache.clear();
    }
    cache.put(expression, c);
    return c;
  }

  private Compiled doCompile(String expression) {
    CelAbstractSyntaxTree ast;
    try {
      ast = cel.compile(expression).getAst();
    } catch (CelValidationException e) {
      return new Compiled(expression, null, "compilation failed: " + e.getMessage());
    }
    CelType out = ast.getResultType();
    if (!out.equals(SimpleType.BOOL) && !out.equals(SimpleType.DYN)) {
      return new Compiled(
          expression, null, "must evaluate to bool or the unknown type, not " + out.name());
    }
    try {
      return new Compiled(expression, cel.createProgram(ast), null);
    } catch (CelEvaluationException e) {
      return new Compiled(expression, null, "program instantiation failed: " + e.getMessage());
    }
  }

  /**
   * The outcome of an expression on a device's content: the very attribute and capacity maps (the
   * cluster's objects are shared and never modified, so the same maps give the same outcome) and
   * the driver.
   */
  private record Outcome(String expression, Object attributes, Object capacity, String driver) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Outcome other
          && attributes == other.attributes
          && capacity == other.capacity
          && expression.equals(other.expression)
          && driver.equals(other.driver);
    }

    @Override
    public int hashCode() {
      return (expression.hashCode() * 31 + System.identityHashCode(attributes)) * 31
          + System.identityHashCode(capacity) * 7
          + driver.hashCode();
    }
  }

  private static final int OUTCOMES_SIZE = 1 << 16;

  /** The outcomes evaluated so far (errors are not kept: they are raised on every evaluation). */
  private final Map<Outcome, Boolean> outcomes = new ConcurrentHashMap<>();

  /**
   * Evaluates a compiled selector against a device. The outcome for the same expression on the same
   * attribute and capacity maps (and driver) is evaluated once and remembered: a DeviceClass's
   * selector is then not evaluated again for every pod and node.
   *
   * @throws EvalException on a runtime error or when the cost limit is exceeded
   */
  boolean matches(
      Compiled compiled,
      String driver,
      Map<String, V1DeviceAttribute> attributes,
      Map<String, V1DeviceCapacity> capacity)
      throws EvalException {
    Outcome key =
        new Outcome(compiled.expression(), attributes, capacity, driver == null ? "" : driver);
    Boolean known = outcomes.get(key);
    if (known != null) {
      return known;
    }
    boolean m = evaluate(compiled, driver, attributes, capacity);
    if (outcomes.size() >= OUTCOMES_SIZE) {
      outcomes.clear();
    }
    outcomes.put(key, m);
    return m;
  }

  private boolean evaluate(
      Compiled compiled,
      String driver,
      Map<String, V1DeviceAttribute> attributes,
      Map<String, V1DeviceCapacity> capacity)
      throws EvalException {
    Map<String, Map<String, Object>> attrs = new HashMap<>();
    if (attributes != null) {
      for (Map.Entry<String, V1DeviceAttribute> e : attributes.entrySet()) {
        String[] dn = split(e.getKey(), driver);
        attrs.computeIfAbsent(dn[0], k -> new HashMap<>()).put(dn[1], value(e.getValue()));
      }
    }
    Map<String, Map<String, Object>> caps = new HashMap<>();
    if (capacity != null) {
      for (Map.Entry<String, V1DeviceCapacity> e : capacity.entrySet()) {
        String[] dn = split(e.getKey(), driver);
        Quantity q = e.getValue() == null ? null : e.getValue().getValue();
        caps.computeIfAbsent(dn[0], k -> new HashMap<>())
            .put(dn[1], new CelQuantity(q == null ? BigDecimal.ZERO : q.getNumber()));
      }
    }
    Map<String, Object> device = new LinkedHashMap<>();
    device.put("driver", driver);
    device.put("attributes", new DefaultEmptyMap(attrs));
    device.put("capacity", new DefaultEmptyMap(caps));
    long[] cost = {0};
    Object result;
    try {
      result =
          compiled
              .program()
              .trace(
                  Map.of("device", device),
                  (expr, value) -> {
                    if (++cost[0] > costLimit) {
                      throw new CostExceeded();
                    }
                  });
    } catch (CostExceeded e) {
      throw costError();
    } catch (CelEvaluationException e) {
      if (hasCause(e, CostExceeded.class)) {
        throw costError();
      }
      throw new EvalException(e.getMessage());
    } catch (RuntimeException e) {
      if (hasCause(e, CostExceeded.class)) {
        throw costError();
      }
      throw new EvalException(String.valueOf(e.getMessage()));
    }
    if (result instanceof Boolean b) {
      return b;
    }
    throw new EvalException(
        "CEL result of type "
            + (result == null ? "null" : result.getClass().getSimpleName())
            + " could not be converted to bool");
  }

  private static EvalException costError() {
    return new EvalException("operation cancelled: actual cost limit exceeded");
  }

  private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (type.isInstance(c)) {
        return true;
      }
    }
    return false;
  }

  private static String[] split(String name, String driver) {
    int i = name.indexOf('/');
    return i < 0
        ? new String[] {driver, name}
        : new String[] {name.substring(0, i), name.substring(i + 1)};
  }

  private static Object value(V1DeviceAttribute a) throws EvalException {
    if (a == null) {
      throw new EvalException("unsupported attribute value");
    }
    if (a.getInt() != null) {
      return a.getInt();
    }
    if (a.getBool() != null) {
      return a.getBool();
    }
    if (a.getString() != null) {
      return a.getString();
    }
    if (a.getVersion() != null) {
      try {
        return Semver.parse(a.getVersion());
      } catch (IllegalArgumentException e) {
        throw new EvalException("parse semantic version: " + e.getMessage());
      }
    }
    throw new EvalException("unsupported attribute value");
  }

  // ---------------------------------------------------------------- kube's CEL libraries

  private static Iterable<CelFunctionDecl> declarations() {
    return java.util.List.of(
        CelFunctionDecl.newFunctionDeclaration(
            "quantity",
            CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(
            "isQuantity",
            CelOverloadDecl.newGlobalOverload(
                "is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
        member("sign", "quantity_sign", SimpleType.INT, QUANTITY),
        member("isInteger", "quantity_is_integer", SimpleType.BOOL, QUANTITY),
        member("asInteger", "quantity_get_int", SimpleType.INT, QUANTITY),
        member("asApproximateFloat", "quantity_get_float", SimpleType.DOUBLE, QUANTITY),
        CelFunctionDecl.newFunctionDeclaration(
            "add",
            CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload(
                "quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration(
            "sub",
            CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload(
                "quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)),
        CelFunctionDecl.newFunctionDeclaration(
            "isLessThan",
            CelOverloadDecl.newMemberOverload("quantity_less", SimpleType.BOOL, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_less", SimpleType.BOOL, SEMVER, SEMVER)),
        CelFunctionDecl.newFunctionDeclaration(
            "isGreaterThan",
            CelOverloadDecl.newMemberOverload(
                "quantity_greater", SimpleType.BOOL, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_greater", SimpleType.BOOL, SEMVER, SEMVER)),
        CelFunctionDecl.newFunctionDeclaration(
            "compareTo",
            CelOverloadDecl.newMemberOverload(
                "quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY),
            CelOverloadDecl.newMemberOverload("semver_compare_to", SimpleType.INT, SEMVER, SEMVER)),
        CelFunctionDecl.newFunctionDeclaration(
            "semver",
            CelOverloadDecl.newGlobalOverload("string_to_semver", SEMVER, SimpleType.STRING)),
        CelFunctionDecl.newFunctionDeclaration(
            "isSemver",
            CelOverloadDecl.newGlobalOverload(
                "is_semver_string", SimpleType.BOOL, SimpleType.STRING)),
        member("major", "semver_major", SimpleType.INT, SEMVER),
        member("minor", "semver_minor", SimpleType.INT, SEMVER),
        member("patch", "semver_patch", SimpleType.INT, SEMVER));
  }

  private static CelFunctionDecl member(String name, String id, CelType result, CelType target) {
    return CelFunctionDecl.newFunctionDeclaration(
        name, CelOverloadDecl.newMemberOverload(id, result, target));
  }

  private static Iterable<CelFunctionBinding> bindings() {
    return java.util.List.of(
        CelFunctionBinding.from("string_to_quantity", String.class, CelSelectors::quantity),
        CelFunctionBinding.from("is_quantity_string", String.class, CelSelectors::isQuantity),
        CelFunctionBinding.from("quantity_sign", CelQuantity.class, q -> (long) q.value().signum()),
        CelFunctionBinding.from(
            "quantity_is_integer", CelQuantity.class, q -> isInteger(q.value())),
        CelFunctionBinding.from("quantity_get_int", CelQuantity.class, CelSelectors::asInteger),
        CelFunctionBinding.from(
            "quantity_get_float", CelQuantity.class, q -> q.value().doubleValue()),
        CelFunctionBinding.from(
            "quantity_add",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> new CelQuantity(a.value().add(b.value()))),
        CelFunctionBinding.from(
            "quantity_add_int",
            CelQuantity.class,
            Long.class,
            (a, b) -> new CelQuantity(a.value().add(BigDecimal.valueOf(b)))),
        CelFunctionBinding.from(
            "quantity_sub",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> new CelQuantity(a.value().subtract(b.value()))),
        CelFunctionBinding.from(
            "quantity_sub_int",
            CelQuantity.class,
            Long.class,
            (a, b) -> new CelQuantity(a.value().subtract(BigDecimal.valueOf(b)))),
        CelFunctionBinding.from(
            "quantity_less",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> a.value().compareTo(b.value()) < 0),
        CelFunctionBinding.from(
            "quantity_greater",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> a.value().compareTo(b.value()) > 0),
        CelFunctionBinding.from(
            "quantity_compare_to",
            CelQuantity.class,
            CelQuantity.class,
            (a, b) -> (long) Integer.signum(a.value().compareTo(b.value()))),
        CelFunctionBinding.from("string_to_semver", String.class, CelSelectors::semver),
        CelFunctionBinding.from("is_semver_string", String.class, Semver::isValid),
        CelFunctionBinding.from("semver_major", Semver.class, Semver::major),
        CelFunctionBinding.from("semver_minor", Semver.class, Semver::minor),
        CelFunctionBinding.from("semver_patch", Semver.class, Semver::patch),
        CelFunctionBinding.from(
            "semver_less", Semver.class, Semver.class, (a, b) -> a.compareTo(b) < 0),
        CelFunctionBinding.from(
            "semver_greater", Semver.class, Semver.class, (a, b) -> a.compareTo(b) > 0),
        CelFunctionBinding.from(
            "semver_compare_to", Semver.class, Semver.class, (a, b) -> (long) a.compareTo(b)));
  }

  private static CelQuantity quantity(String s) throws CelEvaluationException {
    try {
      return new CelQuantity(Quantities.parse(s).getNumber());
    } catch (RuntimeException e) {
      throw new CelEvaluationException("quantities must match the regular expression", e);
    }
  }

  private static boolean isQuantity(String s) {
    try {
      Quantities.parse(s);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  private static boolean isInteger(BigDecimal v) {
    return v.signum() == 0 || v.scale() <= 0 || v.stripTrailingZeros().scale() <= 0
        ? v.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0
        : false;
  }

  private static long asInteger(CelQuantity q) throws CelEvaluationException {
    if (!isInteger(q.value())) {
      throw new CelEvaluationException(
          "cannot convert value to integer: quantity is not an integer");
    }
    return q.value().setScale(0, RoundingMode.UNNECESSARY).longValueExact();
  }

  private static Semver semver(String s) throws CelEvaluationException {
    try {
      return Semver.parse(s);
    } catch (IllegalArgumentException e) {
      throw new CelEvaluationException("Could not parse semver version: " + s, e);
    }
  }

  /** A map whose missing keys read as an empty map (kube's attribute/capacity domains). */
  private static final class DefaultEmptyMap extends AbstractMap<String, Map<String, Object>> {
    private final Map<String, Map<String, Object>> delegate;

    DefaultEmptyMap(Map<String, Map<String, Object>> delegate) {
      this.delegate = delegate;
    }

    @Override
    public Map<String, Object> get(Object key) {
      Map<String, Object> v = delegate.get(key);
      return v == null ? Map.of() : v;
    }

    @Override
    public boolean containsKey(Object key) {
      return true;
    }

    @Override
    public Set<Entry<String, Map<String, Object>>> entrySet() {
      return delegate.entrySet();
    }
  }

  /** The type provider that knows the device type. */
  private static final class SingleTypeProvider implements dev.cel.common.types.CelTypeProvider {
    private final StructType type;

    SingleTypeProvider(StructType type) {
      this.type = type;
    }

    @Override
    public com.google.common.collect.ImmutableCollection<CelType> types() {
      return com.google.common.collect.ImmutableList.of(type);
    }

    @Override
    public Optional<CelType> findType(String name) {
      return type.name().equals(name) ? Optional.of(type) : Optional.empty();
    }
  }
}
