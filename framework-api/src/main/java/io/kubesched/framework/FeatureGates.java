package io.kubesched.framework;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The feature gates of the scheduler: kube's {@code --feature-gates} as component-base parses it,
 * with kube v1.33's names, stages and defaults for the gates the scheduler reads, plus {@value
 * #OPPORTUNISTIC_BATCHING} (kube v1.35; off here).
 *
 * <p>Immutable. Plugins read the gates of their scheduler with {@link
 * FrameworkHandle#featureGates()} and {@link #enabled(String)}. {@value #ALL_ALPHA} and {@value
 * #ALL_BETA} turn on every alpha or beta gate not set explicitly, as in kube.
 */
public final class FeatureGates {
  /** The maturity of a gate (component-base's {@code prerelease}). */
  public enum Stage {
    /** Off by default, may change or go away. */
    ALPHA,
    /** Usually on by default. */
    BETA,
    /** Generally available; usually locked to its default. */
    GA,
    /** Going away. */
    DEPRECATED
  }

  /**
   * A known gate.
   *
   * @param name the gate's name, e.g. {@code DynamicResourceAllocation}
   * @param defaultValue whether the gate is on when not set
   * @param stage the gate's maturity
   * @param lockedToDefault whether setting the gate to anything but its default is refused
   */
  public record Spec(String name, boolean defaultValue, Stage stage, boolean lockedToDefault) {
    /** Checks the name. */
    public Spec {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(stage, "stage");
    }
  }

  /** Turns on every alpha gate not set explicitly. */
  public static final String ALL_ALPHA = "AllAlpha";

  /** Turns on every beta gate not set explicitly. */
  public static final String ALL_BETA = "AllBeta";

  /** The Portworx in-tree volume plugin is migrated to CSI (GA in v1.33, locked on). */
  public static final String CSI_MIGRATION_PORTWORX = "CSIMigrationPortworx";

  /** Admin access to devices in ResourceClaims (alpha). */
  public static final String DRA_ADMIN_ACCESS = "DRAAdminAccess";

  /** Device taints and tolerations in DRA (alpha). */
  public static final String DRA_DEVICE_TAINTS = "DRADeviceTaints";

  /** Partitionable devices in DRA (alpha). */
  public static final String DRA_PARTITIONABLE_DEVICES = "DRAPartitionableDevices";

  /** Prioritized lists of device requests in DRA (alpha). */
  public static final String DRA_PRIORITIZED_LIST = "DRAPrioritizedList";

  /** {@code ResourceClaim.status.devices} (beta, on). */
  public static final String DRA_RESOURCE_CLAIM_DEVICE_STATUS = "DRAResourceClaimDeviceStatus";

  /** Dynamic resource allocation with structured parameters (beta, off in v1.33). */
  public static final String DYNAMIC_RESOURCE_ALLOCATION = "DynamicResourceAllocation";

  /** In-place resize of pod resources (beta, on). */
  public static final String IN_PLACE_POD_VERTICAL_SCALING = "InPlacePodVerticalScaling";

  /** {@code matchLabelKeys} in topology spread constraints (beta, on). */
  public static final String MATCH_LABEL_KEYS_IN_POD_TOPOLOGY_SPREAD =
      "MatchLabelKeysInPodTopologySpread";

  /** {@code nodeAffinityPolicy}/{@code nodeTaintsPolicy} in topology spread (GA, locked on). */
  public static final String NODE_INCLUSION_POLICY_IN_POD_TOPOLOGY_SPREAD =
      "NodeInclusionPolicyInPodTopologySpread";

  /** Scheduling several equivalent pods in one batch (kube v1.35; off here). */
  public static final String OPPORTUNISTIC_BATCHING = "OpportunisticBatching";

  /** Pod-level resource requests and limits (alpha). */
  public static final String POD_LEVEL_RESOURCES = "PodLevelResources";

  /** {@code schedulingGates} on pods (GA, locked on). */
  public static final String POD_SCHEDULING_READINESS = "PodSchedulingReadiness";

  /** Preemption's API calls run asynchronously (beta, on). */
  public static final String SCHEDULER_ASYNC_PREEMPTION = "SchedulerAsyncPreemption";

  /** The queue pops from backoffQ when activeQ is empty (beta, on). */
  public static final String SCHEDULER_POP_FROM_BACKOFF_Q = "SchedulerPopFromBackoffQ";

  /** Queueing hints decide which events requeue a pod (beta, on). */
  public static final String SCHEDULER_QUEUEING_HINTS = "SchedulerQueueingHints";

  /** Restartable init containers (GA, locked on). */
  public static final String SIDECAR_CONTAINERS = "SidecarContainers";

  /** Scoring nodes by free storage capacity; replaces VolumeCapacityPriority (alpha). */
  public static final String STORAGE_CAPACITY_SCORING = "StorageCapacityScoring";

  /** VolumeAttributesClass for PVCs (beta, off). */
  public static final String VOLUME_ATTRIBUTES_CLASS = "VolumeAttributesClass";

  private static final Map<String, Spec> KNOWN =
      index(
          new Spec(ALL_ALPHA, false, Stage.ALPHA, false),
          new Spec(ALL_BETA, false, Stage.BETA, false),
          new Spec(CSI_MIGRATION_PORTWORX, true, Stage.GA, true),
          new Spec(DRA_ADMIN_ACCESS, false, Stage.ALPHA, false),
          new Spec(DRA_DEVICE_TAINTS, false, Stage.ALPHA, false),
          new Spec(DRA_PARTITIONABLE_DEVICES, false, Stage.ALPHA, false),
          new Spec(DRA_PRIORITIZED_LIST, false, Stage.ALPHA, false),
          new Spec(DRA_RESOURCE_CLAIM_DEVICE_STATUS, true, Stage.BETA, false),
          new Spec(DYNAMIC_RESOURCE_ALLOCATION, false, Stage.BETA, false),
          new Spec(IN_PLACE_POD_VERTICAL_SCALING, true, Stage.BETA, false),
          new Spec(MATCH_LABEL_KEYS_IN_POD_TOPOLOGY_SPREAD, true, Stage.BETA, false),
          new Spec(NODE_INCLUSION_POLICY_IN_POD_TOPOLOGY_SPREAD, true, Stage.GA, true),
          new Spec(OPPORTUNISTIC_BATCHING, false, Stage.BETA, false),
          new Spec(POD_LEVEL_RESOURCES, false, Stage.ALPHA, false),
          new Spec(POD_SCHEDULING_READINESS, true, Stage.GA, true),
          new Spec(SCHEDULER_ASYNC_PREEMPTION, true, Stage.BETA, false),
          new Spec(SCHEDULER_POP_FROM_BACKOFF_Q, true, Stage.BETA, false),
          new Spec(SCHEDULER_QUEUEING_HINTS, true, Stage.BETA, false),
          new Spec(SIDECAR_CONTAINERS, true, Stage.GA, true),
          new Spec(STORAGE_CAPACITY_SCORING, false, Stage.ALPHA, false),
          new Spec(VOLUME_ATTRIBUTES_CLASS, false, Stage.BETA, false));

  private static final FeatureGates DEFAULTS = new FeatureGates(Map.of());

  private final Map<String, Boolean> explicit;

  private FeatureGates(Map<String, Boolean> explicit) {
    this.explicit = explicit;
  }

  private static Map<String, Spec> index(Spec... specs) {
    Map<String, Spec> m = new LinkedHashMap<>();
    for (Spec s : specs) {
      m.put(s.name(), s);
    }
    return Collections.unmodifiableMap(m);
  }

  /** Returns the gates at their defaults. */
  public static FeatureGates defaults() {
    return DEFAULTS;
  }

  /** Returns every gate this scheduler knows, in alphabetical order. */
  public static Collection<Spec> known() {
    return KNOWN.values();
  }

  /**
   * Returns the gates with {@code settings} applied over the defaults, checked as component-base's
   * {@code SetFromMap} checks them.
   *
   * @throws IllegalArgumentException naming every unknown gate ({@code unrecognized feature gate:
   *     Foo}) and every locked gate set against its default ({@code cannot set feature gate X to
   *     false, feature is locked to true})
   */
  public static FeatureGates of(Map<String, Boolean> settings) {
    List<String> errors = new ArrayList<>();
    Map<String, Boolean> explicit = new LinkedHashMap<>();
    settings.forEach(
        (name, value) -> {
          Spec spec = KNOWN.get(name);
          if (spec == null) {
            errors.add("unrecognized feature gate: " + name);
          } else if (spec.lockedToDefault() && spec.defaultValue() != value) {
            errors.add(
                "cannot set feature gate "
                    + name
                    + " to "
                    + value
                    + ", feature is locked to "
                    + spec.defaultValue());
          } else {
            explicit.put(name, value);
          }
        });
    if (!errors.isEmpty()) {
      throw new IllegalArgumentException(
          errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }
    return explicit.isEmpty() ? DEFAULTS : new FeatureGates(Collections.unmodifiableMap(explicit));
  }

  /**
   * Parses the value of kube's {@code --feature-gates} flag: comma-separated {@code Name=bool}
   * pairs (Go's {@code strconv.ParseBool} values: {@code true}, {@code false}, {@code 1}, {@code
   * 0}, {@code t}, {@code F}, ...); empty items are skipped, a later pair wins.
   *
   * @throws IllegalArgumentException with kube's message when a pair or a gate is invalid (see
   *     {@link #of(Map)})
   */
  public static FeatureGates parse(String flag) {
    Map<String, Boolean> settings = new LinkedHashMap<>();
    for (String item : flag.split(",", -1)) {
      if (item.isEmpty()) {
        continue;
      }
      int eq = item.indexOf('=');
      String name = (eq < 0 ? item : item.substring(0, eq)).trim();
      if (eq < 0) {
        throw new IllegalArgumentException("missing bool value for " + name);
      }
      String value = item.substring(eq + 1).trim();
      Boolean b = parseBool(value);
      if (b == null) {
        throw new IllegalArgumentException(
            "invalid value of "
                + name
                + "="
                + value
                + ", err: strconv.ParseBool: parsing \""
                + value
                + "\": invalid syntax");
      }
      settings.remove(name);
      settings.put(name, b);
    }
    return of(settings);
  }

  private static Boolean parseBool(String s) {
    return switch (s) {
      case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
      case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
      default -> null;
    };
  }

  /**
   * Returns whether gate {@code name} is on: its explicit setting, else on when it is alpha and
   * {@value #ALL_ALPHA} is set or beta and {@value #ALL_BETA} is set, else its default.
   *
   * @throws IllegalArgumentException when {@code name} is not a known gate (kube panics)
   */
  public boolean enabled(String name) {
    Spec spec = KNOWN.get(name);
    if (spec == null) {
      throw new IllegalArgumentException("feature \"" + name + "\" is not registered");
    }
    Boolean set = explicit.get(name);
    if (set != null) {
      return set;
    }
    if (spec.stage() == Stage.ALPHA && !name.equals(ALL_ALPHA) && explicitTrue(ALL_ALPHA)) {
      return true;
    }
    if (spec.stage() == Stage.BETA && !name.equals(ALL_BETA) && explicitTrue(ALL_BETA)) {
      return true;
    }
    return spec.defaultValue();
  }

  private boolean explicitTrue(String name) {
    return Boolean.TRUE.equals(explicit.get(name));
  }

  /** Returns the gates set explicitly, in the order given. */
  public Map<String, Boolean> explicit() {
    return explicit;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FeatureGates f && f.explicit.equals(explicit);
  }

  @Override
  public int hashCode() {
    return explicit.hashCode();
  }

  /** Returns the explicit settings in the flag's syntax, e.g. {@code A=true,B=false}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    explicit.forEach(
        (k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
    return sb.toString();
  }
}
