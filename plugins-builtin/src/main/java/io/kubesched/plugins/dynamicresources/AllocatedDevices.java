package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubesched.framework.ClusterWatcher;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The devices taken by allocated ResourceClaims, kept up to date from the cluster's claim events
 * (kube's allocated-devices tracker), so that a pod's PreFilter does not go through every claim of
 * the cluster. Devices allocated with admin access are not taken.
 *
 * <p>Seeded with the claims listed right after the watch is registered; every change is applied
 * only when its {@code resourceVersion} is not older than the one already applied for that claim,
 * so an event and the seed listing may arrive in either order. {@link #view()} gives a fixed set
 * for one scheduling cycle: a copy of the taken devices' bits by slot ({@link DeviceIds}), made
 * again only after a change, so a lookup is one bit read. Thread-safe.
 */
final class AllocatedDevices implements ClusterWatcher {
  private record Entry(long resourceVersion, List<DeviceId> devices) {}

  private final Map<String, Entry> byClaim = new HashMap<>(); // by namespace/name
  private final DeviceIds ids;

  /** A tracker whose device ids are the canonical ones of {@code ids} (shared with the pools). */
  AllocatedDevices(DeviceIds ids) {
    this.ids = ids;
  }

  /** A tracker with its own registry of ids. */
  AllocatedDevices() {
    this(new DeviceIds());
  }

  private final Map<DeviceId, Integer> holders = new HashMap<>();

  // the taken devices by slot; the last view's copy is shared until a change
  private long[] taken = new long[1];
  private long[] published;

  /**
   * Applies the claims {@code list} gives, listed after registering, while holding the tracker: an
   * event delivered meanwhile waits and is then applied in order.
   */
  synchronized void seed(Supplier<? extends Collection<ResourceV1ResourceClaim>> list) {
    for (ResourceV1ResourceClaim c : list.get()) {
      put(c);
    }
  }

  @Override
  public synchronized void onResourceClaimChange(
      ResourceV1ResourceClaim oldClaim, ResourceV1ResourceClaim claim) {
    if (claim != null) {
      put(claim);
    } else if (oldClaim != null) {
      delete(oldClaim);
    }
  }

  /** Returns the devices taken now, as a set that does not change afterwards. */
  Set<DeviceId> view() {
    return view(List.of());
  }

  /**
   * Returns the devices taken now and {@code alsoTaken} (those of claims being allocated, not yet
   * written), as a set that does not change afterwards.
   */
  synchronized Set<DeviceId> view(List<DeviceId> alsoTaken) {
    if (published == null) {
      published = taken.clone();
    }
    if (alsoTaken.isEmpty()) {
      return new View(published, ids);
    }
    long[] bits = published.clone();
    for (DeviceId d : alsoTaken) {
      int slot = ids.intern(d).slot();
      if (slot >>> 6 >= bits.length) {
        bits = Arrays.copyOf(bits, (slot >>> 6) + 1);
      }
      bits[slot >>> 6] |= 1L << slot;
    }
    return new View(bits, ids);
  }

  private void put(ResourceV1ResourceClaim claim) {
    String uid = uid(claim);
    if (uid == null) {
      return;
    }
    long rv = resourceVersion(claim);
    Entry old = byClaim.get(uid);
    if (old != null && older(rv, old.resourceVersion())) {
      return;
    }
    List<DeviceId> devices = devicesOf(claim);
    if (!devices.isEmpty()) {
      List<DeviceId> same = new ArrayList<>(devices.size());
      for (DeviceId d : devices) {
        same.add(ids.intern(d));
      }
      devices = same;
    }
    byClaim.put(uid, new Entry(rv, devices));
    if (old != null) {
      release(old.devices());
    }
    take(devices);
  }

  private void delete(ResourceV1ResourceClaim claim) {
    String uid = uid(claim);
    Entry old = uid == null ? null : byClaim.get(uid);
    if (old == null || older(resourceVersion(claim), old.resourceVersion())) {
      return;
    }
    byClaim.remove(uid);
    release(old.devices());
  }

  private void take(List<DeviceId> devices) {
    for (DeviceId d : devices) {
      if (holders.merge(d, 1, Integer::sum) == 1) {
        int slot = d.slot();
        if (slot >>> 6 >= taken.length) {
          taken = Arrays.copyOf(taken, Math.max((slot >>> 6) + 1, taken.length * 2));
        }
        taken[slot >>> 6] |= 1L << slot;
        published = null;
      }
    }
  }

  private void release(List<DeviceId> devices) {
    for (DeviceId d : devices) {
      int left = holders.merge(d, -1, Integer::sum);
      if (left <= 0) {
        holders.remove(d);
        taken[d.slot() >>> 6] &= ~(1L << d.slot());
        published = null;
      }
    }
  }

  /** The devices an allocated claim takes (none for a claim not allocated). */
  static List<DeviceId> devicesOf(ResourceV1ResourceClaim c) {
    if (!ClaimLookup.allocated(c)
        || c.getStatus().getAllocation().getDevices() == null
        || c.getStatus().getAllocation().getDevices().getResults() == null) {
      return List.of();
    }
    List<DeviceId> out = new ArrayList<>();
    for (V1DeviceRequestAllocationResult r :
        c.getStatus().getAllocation().getDevices().getResults()) {
      if (Boolean.TRUE.equals(r.getAdminAccess())) {
        continue; // admin access does not take the device
      }
      out.add(new DeviceId(r.getDriver(), r.getPool(), r.getDevice()));
    }
    return out;
  }

  /** The claim's key: namespace and name (a claim loaded from a manifest may have no UID). */
  private static String uid(ResourceV1ResourceClaim c) {
    V1ObjectMeta m = c.getMetadata();
    return m == null || m.getName() == null ? null : m.getNamespace() + "/" + m.getName();
  }

  /** Whether version {@code rv} is known to be older than {@code than} (unknown ones never are). */
  private static boolean older(long rv, long than) {
    return rv != UNKNOWN && than != UNKNOWN && rv < than;
  }

  private static final long UNKNOWN = Long.MIN_VALUE;

  /** The claim's resourceVersion as a number, or {@link #UNKNOWN}. */
  private static long resourceVersion(ResourceV1ResourceClaim c) {
    String rv = c.getMetadata() == null ? null : c.getMetadata().getResourceVersion();
    if (rv == null) {
      return UNKNOWN;
    }
    try {
      return Long.parseLong(rv);
    } catch (NumberFormatException e) {
      return UNKNOWN;
    }
  }

  /** A fixed set: the devices whose slots are set in {@code bits}. */
  private static final class View extends AbstractSet<DeviceId> {
    private final long[] bits;
    private final DeviceIds ids;

    View(long[] bits, DeviceIds ids) {
      this.bits = bits;
      this.ids = ids;
    }

    @Override
    public boolean contains(Object o) {
      if (!(o instanceof DeviceId id)) {
        return false;
      }
      if (id.registry() != ids) {
        id = ids.find(id);
        if (id == null) {
          return false;
        }
      }
      int slot = id.slot();
      return slot >>> 6 < bits.length && (bits[slot >>> 6] & (1L << slot)) != 0;
    }

    @Override
    public Iterator<DeviceId> iterator() {
      List<DeviceId> all = new ArrayList<>();
      for (int w = 0; w < bits.length; w++) {
        for (long b = bits[w]; b != 0; b &= b - 1) {
          all.add(ids.bySlot(w * 64 + Long.numberOfTrailingZeros(b)));
        }
      }
      return Collections.unmodifiableList(all).iterator();
    }

    @Override
    public int size() {
      int n = 0;
      for (long b : bits) {
        n += Long.bitCount(b);
      }
      return n;
    }
  }
}
