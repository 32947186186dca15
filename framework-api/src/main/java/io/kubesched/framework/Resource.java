package io.kubesched.framework;

import io.kubernetes.client.custom.Quantity;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * An amount of compute resources in the units the scheduler computes with: CPU in millicores,
 * memory and ephemeral storage in bytes, the number of pods, and scalar resources (extended
 * resources such as {@code nvidia.com/gpu}, hugepages) in whole units.
 *
 * <p>Immutable; {@link #add} and {@link #subtract} return new values.
 *
 * @param milliCpu CPU in millicores
 * @param memory memory in bytes
 * @param ephemeralStorage ephemeral storage in bytes
 * @param allowedPodNumber the number of pods (only meaningful for allocatable)
 * @param scalarResources the scalar resources by name; never {@code null}
 */
public record Resource(
    long milliCpu,
    long memory,
    long ephemeralStorage,
    long allowedPodNumber,
    Map<String, Long> scalarResources) {

  private static final Resource ZERO = new Resource(0, 0, 0, 0, Map.of());

  /** Makes the scalar map immutable. */
  public Resource {
    scalarResources =
        scalarResources == null || scalarResources.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new TreeMap<>(scalarResources));
  }

  // Written out rather than generated: a record's generated equals goes through method handles,
  // slow until the JIT has compiled its caller, and batching compares requests for every pod.
  @Override
  public boolean equals(Object o) {
    return o instanceof Resource r
        && milliCpu == r.milliCpu
        && memory == r.memory
        && ephemeralStorage == r.ephemeralStorage
        && allowedPodNumber == r.allowedPodNumber
        && scalarResources.equals(r.scalarResources);
  }

  @Override
  public int hashCode() {
    int h = Long.hashCode(milliCpu);
    h = 31 * h + Long.hashCode(memory);
    h = 31 * h + Long.hashCode(ephemeralStorage);
    h = 31 * h + Long.hashCode(allowedPodNumber);
    return 31 * h + scalarResources.hashCode();
  }

  /** Returns the empty resource. */
  public static Resource zero() {
    return ZERO;
  }

  /**
   * Converts a Kubernetes resource list (requests, limits, capacity, allocatable). Names that are
   * neither cpu, memory, ephemeral-storage, pods nor scalar resources are ignored, as in kube.
   */
  public static Resource of(Map<String, Quantity> list) {
    if (list == null || list.isEmpty()) {
      return ZERO;
    }
    Builder b = builder();
    for (Map.Entry<String, Quantity> e : list.entrySet()) {
      b.add(e.getKey(), e.getValue());
    }
    return b.build();
  }

  /** Returns the value of the named resource, 0 when absent. */
  public long get(String name) {
    switch (name) {
      case ResourceNames.CPU:
        return milliCpu;
      case ResourceNames.MEMORY:
        return memory;
      case ResourceNames.EPHEMERAL_STORAGE:
        return ephemeralStorage;
      case ResourceNames.PODS:
        return allowedPodNumber;
      default:
        Long v = scalarResources.get(name);
        return v == null ? 0 : v;
    }
  }

  /** Returns the scalar resource {@code name}, 0 when absent. */
  public long scalar(String name) {
    Long v = scalarResources.get(name);
    return v == null ? 0 : v;
  }

  /** Returns whether every amount is zero. */
  public boolean isZero() {
    if (milliCpu != 0 || memory != 0 || ephemeralStorage != 0 || allowedPodNumber != 0) {
      return false;
    }
    for (long v : scalarResources.values()) {
      if (v != 0) {
        return false;
      }
    }
    return true;
  }

  /** Returns {@code this + other}. */
  public Resource add(Resource other) {
    return combine(other, 1);
  }

  /** Returns {@code this - other}. */
  public Resource subtract(Resource other) {
    return combine(other, -1);
  }

  /** Returns, per resource, the larger of {@code this} and {@code other}. */
  public Resource max(Resource other) {
    Map<String, Long> scalars = scalarResources;
    if (!other.scalarResources.isEmpty()) {
      scalars = new HashMap<>(scalarResources);
      for (Map.Entry<String, Long> e : other.scalarResources.entrySet()) {
        scalars.merge(e.getKey(), e.getValue(), Math::max);
      }
    }
    return new Resource(
        Math.max(milliCpu, other.milliCpu),
        Math.max(memory, other.memory),
        Math.max(ephemeralStorage, other.ephemeralStorage),
        Math.max(allowedPodNumber, other.allowedPodNumber),
        scalars);
  }

  private Resource combine(Resource other, int sign) {
    if (other.isZero()) {
      return this;
    }
    Map<String, Long> scalars;
    if (other.scalarResources.isEmpty()) {
      scalars = scalarResources;
    } else {
      scalars = new HashMap<>(scalarResources);
      other.scalarResources.forEach((k, v) -> scalars.merge(k, sign * v, Long::sum));
    }
    return new Resource(
        milliCpu + sign * other.milliCpu,
        memory + sign * other.memory,
        ephemeralStorage + sign * other.ephemeralStorage,
        allowedPodNumber + sign * other.allowedPodNumber,
        scalars);
  }

  /** Returns a builder starting from zero. */
  public static Builder builder() {
    return new Builder();
  }

  /** A mutable accumulator of resources. */
  public static final class Builder {
    private long milliCpu;
    private long memory;
    private long ephemeralStorage;
    private long allowedPodNumber;
    private Map<String, Long> scalars;

    private Builder() {}

    /** Adds the quantity of resource {@code name}; unknown non-scalar names are ignored. */
    public Builder add(String name, Quantity q) {
      if (q == null) {
        throw new NullPointerException("quantity of " + name + " must not be null");
      }
      switch (name) {
        case ResourceNames.CPU:
          milliCpu += Quantities.milliValue(q);
          break;
        case ResourceNames.MEMORY:
          memory += Quantities.value(q);
          break;
        case ResourceNames.EPHEMERAL_STORAGE:
          ephemeralStorage += Quantities.value(q);
          break;
        case ResourceNames.PODS:
          allowedPodNumber += Quantities.value(q);
          break;
        default:
          if (ResourceNames.isScalar(name)) {
            addScalar(name, Quantities.value(q));
          }
      }
      return this;
    }

    /** Adds {@code value} units of the named resource (millicores for CPU). */
    public Builder add(String name, long value) {
      switch (name) {
        case ResourceNames.CPU:
          milliCpu += value;
          break;
        case ResourceNames.MEMORY:
          memory += value;
          break;
        case ResourceNames.EPHEMERAL_STORAGE:
          ephemeralStorage += value;
          break;
        case ResourceNames.PODS:
          allowedPodNumber += value;
          break;
        default:
          addScalar(name, value);
      }
      return this;
    }

    /** Adds every amount of {@code r}. */
    public Builder add(Resource r) {
      milliCpu += r.milliCpu;
      memory += r.memory;
      ephemeralStorage += r.ephemeralStorage;
      allowedPodNumber += r.allowedPodNumber;
      r.scalarResources.forEach(this::addScalar);
      return this;
    }

    private void addScalar(String name, long value) {
      if (scalars == null) {
        scalars = new HashMap<>();
      }
      scalars.merge(name, value, Long::sum);
    }

    /** Returns the accumulated resource. */
    public Resource build() {
      if (milliCpu == 0
          && memory == 0
          && ephemeralStorage == 0
          && allowedPodNumber == 0
          && scalars == null) {
        return ZERO;
      }
      return new Resource(milliCpu, memory, ephemeralStorage, allowedPodNumber, scalars);
    }
  }
}
