package io.kubesched.plugins.dynamicresources;

import java.util.Objects;

/**
 * A device's identity: driver, pool and device name. Equal ids have equal names; the canonical id
 * of a name, made by a {@link DeviceIds} registry, also carries a dense slot number, by which the
 * allocated-devices view records it as one bit.
 */
final class DeviceId {
  private final String driver;
  private final String pool;
  private final String device;
  // the key of the registry's map and of hash sets of ids
  private final int hash;
  private final DeviceIds registry;
  private final int slot;

  /** An id of no registry (slot -1): equal to the canonical one of the same names. */
  DeviceId(String driver, String pool, String device) {
    this(driver, pool, device, null, -1);
  }

  /** The canonical id {@code registry} makes, numbered {@code slot}. */
  DeviceId(String driver, String pool, String device, DeviceIds registry, int slot) {
    this.driver = driver;
    this.pool = pool;
    this.device = device;
    this.registry = registry;
    this.slot = slot;
    // spread: the names differ in their last characters only (instance-0, instance-1, ...), and
    // hash tables probe long runs of neighbouring hashes otherwise
    int h = Objects.hash(driver, pool, device) * 0x9E3779B9;
    this.hash = h ^ (h >>> 16);
  }

  String driver() {
    return driver;
  }

  /** The registry that made this canonical id, or null. */
  DeviceIds registry() {
    return registry;
  }

  /** The id's slot in its {@link #registry()}, or -1. */
  int slot() {
    return slot;
  }

  String pool() {
    return pool;
  }

  String device() {
    return device;
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || o instanceof DeviceId other
            && hash == other.hash
            && (registry == null || registry != other.registry) // canonical ids: one per name
            && Objects.equals(device, other.device)
            && Objects.equals(pool, other.pool)
            && Objects.equals(driver, other.driver);
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return driver + "/" + pool + "/" + device;
  }
}
