package io.kubesched.plugins.dynamicresources;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubesched.plugins.dynamicresources.Pools.Pool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The cluster's ResourceSlices as the allocator reads them: the slices of each node by name, and
 * each node's pools once gathered. One index serves every pod scheduled while the cluster lists the
 * very same slice objects (the cluster's objects are shared and never modified, so the same objects
 * give the same pools); a node's pools are gathered again when its node object changes.
 * Thread-safe: Filter runs in parallel.
 */
final class SliceIndex {
  /**
   * The pools one node can use, gathered for that node object, with the selector outcomes of their
   * devices.
   *
   * @param node the node object the pools were gathered for
   * @param pools the pools, ordered by driver and pool name
   * @param outcomes each pool's selector outcomes, in the order of {@code pools}
   */
  record NodePools(V1Node node, List<Pool> pools, List<Outcomes> outcomes) {}

  /**
   * A class's and a request's selectors, as a key: the very class object and the request's
   * expressions.
   */
  static final class SelectorKey {
    private final Object deviceClass;
    private final List<String> expressions;
    private final int hash;

    SelectorKey(Object deviceClass, List<String> expressions) {
      this.deviceClass = deviceClass;
      this.expressions = expressions;
      this.hash = System.identityHashCode(deviceClass) * 31 + expressions.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o == this
          || o instanceof SelectorKey other
              && deviceClass == other.deviceClass
              && hash == other.hash
              && expressions.equals(other.expressions);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  /**
   * Whether each device of one node's pool passes the selectors of a {@link SelectorKey}: {@link
   * #UNKNOWN}, {@link #MATCH} or {@link #NO_MATCH} by slice and device position, so that a search
   * looks the key up once per pool rather than once per device. Racy writes are benign: every
   * writer stores the same outcome.
   */
  static final class Outcomes {
    static final byte UNKNOWN = 0;
    static final byte MATCH = 1;
    static final byte NO_MATCH = 2;
    private static final int MAX_KEYS = 16;

    private record Last(SelectorKey key, byte[][] outcomes) {}

    private final Pool pool;
    private final Map<SelectorKey, byte[][]> byKey = new ConcurrentHashMap<>();
    // the key asked for last: pod after pod asks for the same one
    private volatile Last last;

    Outcomes(Pool pool) {
      this.pool = pool;
    }

    /** The outcomes for {@code key}, by slice and device position (written by the caller). */
    byte[][] of(SelectorKey key) {
      Last l = last;
      if (l != null && l.key().equals(key)) {
        return l.outcomes();
      }
      byte[][] known = byKey.get(key);
      if (known != null) {
        last = new Last(key, known);
        return known;
      }
      byte[][] fresh = new byte[pool.slices().size()][];
      for (int i = 0; i < fresh.length; i++) {
        fresh[i] = new byte[pool.ids().get(i).size()];
      }
      if (byKey.size() >= MAX_KEYS) {
        byKey.clear();
      }
      known = byKey.putIfAbsent(key, fresh);
      byte[][] out = known != null ? known : fresh;
      last = new Last(key, out);
      return out;
    }
  }

  private final List<V1ResourceSlice> slices;

  /**
   * The positions in {@link #slices} of the slices of one node ({@code spec.nodeName} set), by node
   * name; every other slice's position is in {@link #otherSlices}.
   */
  private final Map<String, List<Integer>> slicesByNode = new HashMap<>();

  private final List<Integer> otherSlices = new ArrayList<>();
  private final Map<String, NodePools> pools = new ConcurrentHashMap<>();

  /**
   * Whether a device passes a class's and a request's CEL selectors: the very device and class
   * objects and the request's expressions. Errors are not kept (raised on every evaluation).
   */
  static final class Selectable {
    private final Object device;
    private final SelectorKey selectors;
    private final int hash;

    Selectable(Object device, SelectorKey selectors) {
      this.device = device;
      this.selectors = selectors;
      this.hash = System.identityHashCode(device) * 31 + selectors.hashCode();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Selectable other
          && device == other.device
          && hash == other.hash
          && selectors.equals(other.selectors);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private static final int SELECTABLE_SIZE = 1 << 16;
  private final Map<Selectable, Boolean> selectable = new ConcurrentHashMap<>();

  /** Returns the remembered outcome of {@code key}, or null. */
  Boolean selectable(Selectable key) {
    return selectable.get(key);
  }

  /** Remembers the outcome of {@code key}. */
  void rememberSelectable(Selectable key, boolean outcome) {
    if (selectable.size() >= SELECTABLE_SIZE) {
      selectable.clear();
    }
    selectable.put(key, outcome);
  }

  private final UnaryOperator<DeviceId> canonical;

  /** Indexes {@code slices} (kept as given, in their order). */
  SliceIndex(List<V1ResourceSlice> slices) {
    this(slices, UnaryOperator.identity());
  }

  /**
   * The same, with the pools' device ids the ones {@code canonical} gives: shared with the
   * allocated-devices tracker, an in-use check then finds the very object it looks for.
   */
  SliceIndex(List<V1ResourceSlice> slices, UnaryOperator<DeviceId> canonical) {
    this.canonical = canonical;
    this.slices = List.copyOf(slices);
    for (int i = 0; i < this.slices.size(); i++) {
      var spec = this.slices.get(i).getSpec();
      String nodeName = spec == null ? null : spec.getNodeName();
      if (nodeName != null && !nodeName.isEmpty() && spec.getPerDeviceNodeSelection() == null) {
        slicesByNode.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(i);
      } else {
        otherSlices.add(i);
      }
    }
  }

  /** Returns the number of nodes that have slices of their own ({@code spec.nodeName}). */
  int nodesWithOwnSlices() {
    return slicesByNode.size();
  }

  /** Returns whether {@code current} lists the very objects this index was made from, in order. */
  boolean sameSlices(List<V1ResourceSlice> current) {
    if (current.size() != slices.size()) {
      return false;
    }
    for (int i = 0; i < current.size(); i++) {
      if (current.get(i) != slices.get(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Returns the pools {@code node} can use (kube's {@code GatherPools} over its own slices and
   * those not tied to one node by name), gathered once per node object.
   */
  List<Pool> pools(V1Node node) {
    return nodePools(node).pools();
  }

  /** The same with the pools' selector outcomes. */
  NodePools nodePools(V1Node node) {
    String name = node == null || node.getMetadata() == null ? null : node.getMetadata().getName();
    if (name != null) {
      NodePools known = pools.get(name);
      if (known != null && known.node() == node) {
        return known;
      }
    }
    List<Pool> out = new ArrayList<>();
    List<Outcomes> outcomes = new ArrayList<>();
    for (Pool p : Pools.gather(slicesFor(node), node, false)) {
      List<List<DeviceId>> ids = new ArrayList<>(p.ids().size());
      for (List<DeviceId> sliceIds : p.ids()) {
        List<DeviceId> same = new ArrayList<>(sliceIds.size());
        for (DeviceId id : sliceIds) {
          same.add(canonical.apply(id));
        }
        ids.add(List.copyOf(same));
      }
      Pool pool =
          new Pool(p.driver(), p.name(), p.slices(), p.incomplete(), p.invalid(), List.copyOf(ids));
      out.add(pool);
      outcomes.add(new Outcomes(pool));
    }
    NodePools made = new NodePools(node, List.copyOf(out), List.copyOf(outcomes));
    if (name != null) {
      pools.put(name, made);
    }
    return made;
  }

  /**
   * Returns the slices that can hold devices for {@code node}: its own and those not tied to one
   * node by name, in their order in {@link #slices} (a slice of another node never matches it).
   */
  private List<V1ResourceSlice> slicesFor(V1Node node) {
    List<Integer> own =
        node == null || node.getMetadata() == null
            ? List.of()
            : slicesByNode.getOrDefault(node.getMetadata().getName(), List.of());
    List<V1ResourceSlice> out = new ArrayList<>(own.size() + otherSlices.size());
    int a = 0;
    int b = 0;
    while (a < own.size() || b < otherSlices.size()) {
      boolean takeOwn =
          b >= otherSlices.size() || (a < own.size() && own.get(a) < otherSlices.get(b));
      out.add(slices.get(takeOwn ? own.get(a++) : otherSlices.get(b++)));
    }
    return out;
  }
}
