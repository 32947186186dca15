package io.kubesched.core.runtime;

import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeInfoLister;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.Status;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The statuses of the nodes rejected in one cycle plus the status of the nodes that were never
 * filtered (kube's {@code framework.NodeToStatus}).
 *
 * <p>Nodes that passed Filter have no entry; nodes without an entry report the absent-nodes status,
 * by default {@code UnschedulableAndUnresolvable} without reasons. Not thread-safe: the scheduling
 * algorithm fills it on one thread after the parallel phase.
 *
 * <p>The Filter phase records its rejections as one batch ({@link #setAll}) that becomes map
 * entries only when something reads them: a pod that is then placed never pays for a map of the
 * (often thousands of) nodes it skipped. The entries are kept in insertion order in two arrays; a
 * name index is built only when a second lookup by name is asked for (the first scans), so a failed
 * pod's statuses are read by the message and by preemption without hashing every name.
 */
public final class NodeToStatus implements NodeToStatusReader {
  private static final Status DEFAULT_ABSENT =
      Status.of(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE);

  // The entries in insertion order (a set on an existing name replaces its status in place).
  private String[] names = NO_NAMES;
  private Status[] values = NO_VALUES;
  private int size;
  // name -> position of every entry, built on the second lookup by name; null before.
  private Map<String, Integer> index;
  private boolean scanned;
  private Status absentNodesStatus;
  // A batch from setAll not yet copied into the entries: node (start + i) % size of pendingNodes
  // has status pendingFailures[i] (null: passed).
  private List<NodeInfo> pendingNodes;
  private int pendingStart;
  private Status[] pendingFailures;
  private int pendingCount;

  /** Creates an empty map with the default absent-nodes status. */
  public NodeToStatus() {
    this.absentNodesStatus = DEFAULT_ABSENT;
  }

  private static final String[] NO_NAMES = new String[0];
  private static final Status[] NO_VALUES = new Status[0];

  /** Creates a map with the given entries (copied, in their order) and absent-nodes status. */
  public NodeToStatus(Map<String, Status> statuses, Status absentNodesStatus) {
    statuses.forEach((name, status) -> append(name, Objects.requireNonNull(status)));
    this.absentNodesStatus = Objects.requireNonNull(absentNodesStatus);
  }

  /**
   * Records the Filter phase's rejections, in order, as {@link #set} would for each non-null {@code
   * failures[i]} with the name of node {@code nodes.get((start + i) % nodes.size())}; the arrays
   * are kept, not copied, and must not change afterwards.
   */
  public void setAll(List<NodeInfo> nodes, int start, Status[] failures) {
    materialize();
    int count = 0;
    for (Status f : failures) {
      if (f != null) {
        count++;
      }
    }
    if (count == 0) {
      return;
    }
    pendingNodes = nodes;
    pendingStart = start;
    pendingFailures = failures;
    pendingCount = count;
  }

  /** Turns a pending {@link #setAll} batch into entries now (no-op without one). */
  void materialize() {
    if (pendingFailures == null) {
      return;
    }
    List<NodeInfo> nodes = pendingNodes;
    Status[] failures = pendingFailures;
    int n = nodes.size();
    int count = pendingCount;
    pendingNodes = null;
    pendingFailures = null;
    pendingCount = 0;
    // the batch names distinct nodes: into an empty map they are appended without lookups
    boolean fresh = size == 0;
    if (fresh) {
      grow(count);
    }
    for (int i = 0; i < failures.length; i++) {
      if (failures[i] != null) {
        String name = nodes.get((pendingStart + i) % n).name();
        if (fresh) {
          append(name, failures[i]);
        } else {
          put(name, failures[i]);
        }
      }
    }
  }

  private void grow(int capacity) {
    if (capacity > names.length) {
      int length = Math.max(capacity, Math.max(8, names.length * 2));
      names = Arrays.copyOf(names, length);
      values = Arrays.copyOf(values, length);
    }
  }

  private void append(String name, Status status) {
    grow(size + 1);
    names[size] = name;
    values[size] = status;
    if (index != null) {
      index.put(name, size);
    }
    size++;
  }

  private void put(String name, Status status) {
    int at = positionOf(name);
    if (at >= 0) {
      values[at] = status;
    } else {
      append(name, status);
    }
  }

  /**
   * Returns the position of {@code name}'s entry, or -1: the first lookup scans the names, later
   * ones use an index built then.
   */
  private int positionOf(String name) {
    if (index == null) {
      if (!scanned) {
        scanned = true;
        for (int i = 0; i < size; i++) {
          if (names[i].equals(name)) {
            return i;
          }
        }
        return -1;
      }
      index = new HashMap<>(Math.max(16, size * 2));
      for (int i = 0; i < size; i++) {
        index.put(names[i], i);
      }
    }
    Integer at = index.get(name);
    return at == null ? -1 : at;
  }

  /** Returns the status of {@code nodeName}: its entry, else the absent-nodes status. */
  @Override
  public Status get(String nodeName) {
    materialize();
    int at = positionOf(nodeName);
    return at < 0 ? absentNodesStatus : values[at];
  }

  /** Sets the status of {@code nodeName}. */
  public void set(String nodeName, Status status) {
    materialize();
    put(nodeName, Objects.requireNonNull(status));
  }

  /** Returns the number of explicit entries. */
  public int size() {
    if (pendingFailures != null && size == 0) {
      return pendingCount;
    }
    materialize();
    return size;
  }

  /** Returns the status of the nodes without an entry. */
  public Status absentNodesStatus() {
    return absentNodesStatus;
  }

  /** Sets the status of the nodes without an entry. */
  public void setAbsentNodesStatus(Status status) {
    this.absentNodesStatus = Objects.requireNonNull(status);
  }

  /** Calls {@code action} for each explicit entry, in insertion order. */
  public void forEachExplicitNode(BiConsumer<String, Status> action) {
    materialize();
    for (int i = 0; i < size; i++) {
      action.accept(names[i], values[i]);
    }
  }

  /** Returns the explicit entries, in insertion order; a read-only view. */
  public Map<String, Status> explicit() {
    materialize();
    return new Explicit();
  }

  @Override
  public List<NodeInfo> nodesForStatusCode(NodeInfoLister lister, Status.Code code) {
    materialize();
    List<NodeInfo> out = new ArrayList<>();
    if (absentNodesStatus.code() == code) {
      List<NodeInfo> all = lister.list();
      if (size == 0) {
        return new ArrayList<>(all);
      }
      for (NodeInfo n : all) {
        if (get(n.name()).code() == code) {
          out.add(n);
        }
      }
      return out;
    }
    for (int i = 0; i < size; i++) {
      if (values[i].code() == code) {
        NodeInfo n = lister.find(names[i]);
        if (n != null) {
          out.add(n);
        }
      }
    }
    return out;
  }

  private Map<String, Status> toMap() {
    materialize();
    Map<String, Status> m = new LinkedHashMap<>();
    for (int i = 0; i < size; i++) {
      m.put(names[i], values[i]);
    }
    return m;
  }

  /** Two maps are equal when their entries and absent-nodes statuses are equal. */
  @Override
  public boolean equals(Object o) {
    return o instanceof NodeToStatus other
        && toMap().equals(other.toMap())
        && absentNodesStatus.equals(other.absentNodesStatus);
  }

  @Override
  public int hashCode() {
    return Objects.hash(toMap(), absentNodesStatus);
  }

  @Override
  public String toString() {
    return "NodeToStatus{" + toMap() + ", absent=" + absentNodesStatus + "}";
  }

  /** The read-only view of the entries {@link #explicit()} returns. */
  private final class Explicit extends AbstractMap<String, Status> {
    @Override
    public int size() {
      return NodeToStatus.this.size();
    }

    @Override
    public Status get(Object key) {
      if (!(key instanceof String name)) {
        return null;
      }
      materialize();
      int at = positionOf(name);
      return at < 0 ? null : values[at];
    }

    @Override
    public boolean containsKey(Object key) {
      return get(key) != null;
    }

    @Override
    public Collection<Status> values() {
      return new AbstractCollection<>() {
        @Override
        public Iterator<Status> iterator() {
          return new Positions<>() {
            @Override
            Status at(int i) {
              return values[i];
            }
          };
        }

        @Override
        public int size() {
          return Explicit.this.size();
        }
      };
    }

    @Override
    public Set<Entry<String, Status>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Entry<String, Status>> iterator() {
          return new Positions<>() {
            @Override
            Entry<String, Status> at(int i) {
              return new SimpleImmutableEntry<>(names[i], values[i]);
            }
          };
        }

        @Override
        public int size() {
          return Explicit.this.size();
        }
      };
    }
  }

  /** Iterates the entries' positions in insertion order; read-only. */
  private abstract class Positions<T> implements Iterator<T> {
    private int next;

    Positions() {
      materialize();
    }

    abstract T at(int i);

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public T next() {
      if (next >= size) {
        throw new NoSuchElementException();
      }
      return at(next++);
    }
  }
}
