package io.kubesched.plugins.dynamicresources;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * One plugin's canonical device ids, each numbered with a dense slot: the pools and the
 * allocated-devices tracker share these objects, so "is this device taken" is one bit read rather
 * than a hash-set probe. Keeps every id it has made for its lifetime (one per device name the
 * cluster has published: a few dozen bytes each). Thread-safe.
 */
final class DeviceIds {
  private final Map<DeviceId, DeviceId> byValue = new HashMap<>();
  private DeviceId[] bySlot = new DeviceId[64];
  private int count;

  /** The canonical id equal to {@code id}, made (with the next slot) when first seen. */
  synchronized DeviceId intern(DeviceId id) {
    if (id.registry() == this) {
      return id;
    }
    DeviceId known = byValue.get(id);
    if (known != null) {
      return known;
    }
    DeviceId made = new DeviceId(id.driver(), id.pool(), id.device(), this, count);
    if (count == bySlot.length) {
      bySlot = Arrays.copyOf(bySlot, count * 2);
    }
    bySlot[count++] = made;
    byValue.put(made, made);
    return made;
  }

  /** The canonical id equal to {@code id}, or null when none was made. */
  synchronized DeviceId find(DeviceId id) {
    return id.registry() == this ? id : byValue.get(id);
  }

  /** The canonical id with slot {@code slot}. */
  synchronized DeviceId bySlot(int slot) {
    return bySlot[slot];
  }
}
