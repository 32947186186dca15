package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Taint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A node with the pods placed on it and the aggregates the scheduler needs (kube's {@code
 * framework.NodeInfo}): requested and non-zero requested resources, used host ports, pods with
 * (anti-)affinity, image states and a generation that changes on every modification.
 *
 * <p>The scheduler's cache owns the mutable instances; plugins receive snapshot copies and must
 * treat them as read-only, except where the framework hands a plugin a copy to modify (preemption
 * dry runs and the nominated-pods pass). Not thread-safe for writes.
 */
public final class NodeInfo {
  private final LongSupplier generationSource;
  private V1Node node;
  private String name;
  private Map<String, String> labels = Map.of();
  private List<Taint> taints = List.of();
  private boolean unschedulable;
  private final ArrayList<PodInfo> pods;
  // The three lists below stay null while empty (most nodes), so that a copy allocates none.
  private @Nullable ArrayList<PodInfo> podsWithAffinity;
  private @Nullable ArrayList<PodInfo> podsWithRequiredAntiAffinity;
  private @Nullable ArrayList<HostPort> usedPorts;
  // The sum of the pods' requests, or null while it is stale: then it is rebuilt from the flat
  // fields below and {@code requestedScalars} on first read (most pods request no scalar resource,
  // so adding or removing them updates the flat fields and allocates nothing).
  private @Nullable Resource requested = Resource.zero();
  private long requestedPods;
  private Map<String, Long> requestedScalars = Map.of();
  private long nonZeroMilliCpu;
  private long nonZeroMemory;
  private Resource allocatable = Resource.zero();
  // Flat copies of the hot resource figures (kept in step with {@code requested},
  // {@code allocatable} and {@code pods}), so that the resource plugins' per-node Filter and Score
  // read primitives of this object instead of chasing the Resource objects and the pod list.
  private long requestedMilliCpu;
  private long requestedMemory;
  private long requestedEphemeralStorage;
  private long allocatableMilliCpu;
  private long allocatableMemory;
  private long allocatableEphemeralStorage;
  private long allowedPodNumber;
  private int podCount;
  private Map<String, ImageStateSummary> imageStates = Map.of();
  // null while no pod on the node has a volume claim (most nodes): copies share nothing then
  private HashMap<String, Integer> pvcRefCounts;
  // The index of each pod in {@code pods} by UID, built once the node holds more than a few pods
  // (a scan reads every pod's info, each elsewhere in memory) and kept from then on; not copied
  // into snapshots (built there too if they remove pods).
  private HashMap<String, Integer> podIndex;
  private static final int INDEX_THRESHOLD = 8;
  // Read-only views, made on first use and kept: the accessors are called per node per pod on the
  // hot path, while the copies of the preemption dry run and the nominated-pods pass mostly never
  // ask. A racing first use makes two equal views, which is harmless.
  private @Nullable List<PodInfo> podsView;
  private @Nullable List<PodInfo> podsWithAffinityView;
  private @Nullable List<PodInfo> podsWithRequiredAntiAffinityView;
  private @Nullable List<HostPort> usedPortsView;
  private long generation;

  /** Creates an empty node info whose generation counts up by itself. */
  public NodeInfo() {
    this((LongSupplier) null);
  }

  /**
   * Creates an empty node info that takes each new generation from {@code generationSource} (the
   * cache passes a counter shared by all its nodes); {@code null} counts up locally.
   */
  public NodeInfo(@Nullable LongSupplier generationSource) {
    this.generationSource = generationSource;
    this.pods = new ArrayList<>();
    bump();
  }

  /** Creates a node info for {@code node} holding {@code pods}. */
  public static NodeInfo of(V1Node node, PodInfo... pods) {
    NodeInfo n = new NodeInfo();
    n.setNode(node);
    for (PodInfo p : pods) {
      n.addPod(p);
    }
    return n;
  }

  private NodeInfo(NodeInfo other) {
    this.generationSource = other.generationSource;
    this.node = other.node;
    this.name = other.name;
    this.labels = other.labels;
    this.taints = other.taints;
    this.unschedulable = other.unschedulable;
    this.pods = copyOf(other.pods);
    this.podsWithAffinity = copyOrNull(other.podsWithAffinity);
    this.podsWithRequiredAntiAffinity = copyOrNull(other.podsWithRequiredAntiAffinity);
    this.usedPorts = copyOrNull(other.usedPorts);
    this.requested = other.requested;
    this.requestedPods = other.requestedPods;
    this.requestedScalars = other.requestedScalars;
    this.nonZeroMilliCpu = other.nonZeroMilliCpu;
    this.nonZeroMemory = other.nonZeroMemory;
    this.allocatable = other.allocatable;
    this.requestedMilliCpu = other.requestedMilliCpu;
    this.requestedMemory = other.requestedMemory;
    this.requestedEphemeralStorage = other.requestedEphemeralStorage;
    this.allocatableMilliCpu = other.allocatableMilliCpu;
    this.allocatableMemory = other.allocatableMemory;
    this.allocatableEphemeralStorage = other.allocatableEphemeralStorage;
    this.allowedPodNumber = other.allowedPodNumber;
    this.podCount = other.podCount;
    this.imageStates = other.imageStates;
    this.pvcRefCounts = other.pvcRefCounts == null ? null : new HashMap<>(other.pvcRefCounts);
    this.generation = other.generation;
  }

  /** Copies {@code list} with room for two more elements (the copies mostly gain a pod or two). */
  private static <T> ArrayList<T> copyOf(ArrayList<T> list) {
    ArrayList<T> copy = new ArrayList<>(list.size() + 2);
    for (int i = 0; i < list.size(); i++) {
      copy.add(list.get(i));
    }
    return copy;
  }

  private static <T> @Nullable ArrayList<T> copyOrNull(@Nullable ArrayList<T> list) {
    return list == null || list.isEmpty() ? null : copyOf(list);
  }

  private void bump() {
    generation = generationSource == null ? generation + 1 : generationSource.getAsLong();
  }

  /** Returns an independent copy with the same generation; pods and the node are shared. */
  public NodeInfo snapshot() {
    return new NodeInfo(this);
  }

  /** Sets (or replaces) the node object; recomputes allocatable, labels and taints. */
  public void setNode(V1Node node) {
    this.node = node;
    this.name = node.getMetadata() == null ? null : node.getMetadata().getName();
    this.labels =
        node.getMetadata() == null || node.getMetadata().getLabels() == null
            ? Map.of()
            : PodInfo.fastCopy(node.getMetadata().getLabels());
    List<Taint> ts = new ArrayList<>();
    if (node.getSpec() != null && node.getSpec().getTaints() != null) {
      for (V1Taint t : node.getSpec().getTaints()) {
        ts.add(Taint.of(t));
      }
    }
    this.taints = List.copyOf(ts);
    this.unschedulable =
        node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    this.allocatable =
        node.getStatus() == null ? Resource.zero() : Resource.of(node.getStatus().getAllocatable());
    this.allocatableMilliCpu = allocatable.milliCpu();
    this.allocatableMemory = allocatable.memory();
    this.allocatableEphemeralStorage = allocatable.ephemeralStorage();
    this.allowedPodNumber = allocatable.allowedPodNumber();
    bump();
  }

  /** Clears the node object; the info stays while pods remain (a "ghost" node). */
  public void removeNode() {
    this.node = null;
    bump();
  }

  /** Sets the image states (computed by the cache across all nodes). */
  public void setImageStates(Map<String, ImageStateSummary> states) {
    this.imageStates = states == null ? Map.of() : Collections.unmodifiableMap(states);
    bump();
  }

  /** Adds {@code pod} and its requests, ports and volume claims. */
  public void addPod(PodInfo pod) {
    pods.add(pod);
    if (podIndex != null) {
      podIndex.putIfAbsent(pod.uid(), pods.size() - 1);
    }
    if (pod.hasAffinity()) {
      if (podsWithAffinity == null) {
        podsWithAffinity = new ArrayList<>();
      }
      podsWithAffinity.add(pod);
    }
    if (pod.hasRequiredAntiAffinity()) {
      if (podsWithRequiredAntiAffinity == null) {
        podsWithRequiredAntiAffinity = new ArrayList<>();
      }
      podsWithRequiredAntiAffinity.add(pod);
    }
    update(pod, 1);
  }

  /**
   * Removes the pod with the UID of {@code pod}.
   *
   * @return {@code false} when no such pod is on this node
   */
  public boolean removePod(PodInfo pod) {
    String uid = pod.uid();
    removeByUid(podsWithAffinity, pod);
    removeByUid(podsWithRequiredAntiAffinity, pod);
    int i = podIndexOf(pod);
    if (i < 0) {
      return false;
    }
    PodInfo existing = pods.get(i);
    swapRemove(pods, i);
    if (podIndex != null) {
      podIndex.remove(uid);
      if (i < pods.size()) {
        podIndex.put(pods.get(i).uid(), i);
      }
    }
    update(existing, -1);
    return true;
  }

  /** Returns the index of the pod with the UID of {@code pod} in {@code pods}, or -1. */
  private int podIndexOf(PodInfo pod) {
    String uid = pod.uid();
    if (podIndex == null && pods.size() > INDEX_THRESHOLD) {
      podIndex = new HashMap<>(pods.size() * 2);
      for (int j = 0; j < pods.size(); j++) {
        podIndex.putIfAbsent(pods.get(j).uid(), j);
      }
    }
    if (podIndex == null) {
      return indexOf(pods, pod);
    }
    Integer i = podIndex.get(uid);
    return i == null ? -1 : i;
  }

  /**
   * Returns the index of {@code pod} itself in {@code list}, else of the first pod with its UID, or
   * -1 (a node holds one pod per UID). UIDs are compared by their cached hash codes first: they
   * often share long prefixes.
   */
  private static int indexOf(List<PodInfo> list, PodInfo pod) {
    // the very info the list holds, as when the cache removes what it added: no element's UID read
    for (int i = 0, n = list.size(); i < n; i++) {
      if (list.get(i) == pod) {
        return i;
      }
    }
    String uid = pod.uid();
    int hash = uid.hashCode();
    for (int i = 0, n = list.size(); i < n; i++) {
      String u = list.get(i).uid();
      if (u == uid || (u.hashCode() == hash && u.equals(uid))) {
        return i;
      }
    }
    return -1;
  }

  private static void removeByUid(@Nullable ArrayList<PodInfo> list, PodInfo pod) {
    if (list == null) {
      return;
    }
    int i = indexOf(list, pod);
    if (i >= 0) {
      swapRemove(list, i);
    }
  }

  private static void swapRemove(ArrayList<PodInfo> list, int i) {
    int last = list.size() - 1;
    list.set(i, list.get(last));
    list.remove(last);
  }

  private void update(PodInfo pod, int sign) {
    if (!pod.requestsScalars()) {
      // what Resource.add and subtract compute, without the objects
      requestedMilliCpu += sign * pod.requestsMilliCpu();
      requestedMemory += sign * pod.requestsMemory();
      requestedEphemeralStorage += sign * pod.requestsEphemeralStorage();
      requestedPods += sign * pod.requestsPods();
      requested = null;
    } else {
      Resource r = pod.requests();
      Resource sum = requested();
      sum = sign > 0 ? sum.add(r) : sum.subtract(r);
      requested = sum;
      requestedMilliCpu = sum.milliCpu();
      requestedMemory = sum.memory();
      requestedEphemeralStorage = sum.ephemeralStorage();
      requestedPods = sum.allowedPodNumber();
      requestedScalars = sum.scalarResources();
    }
    podCount = pods.size();
    nonZeroMilliCpu += sign * pod.nonZeroMilliCpu();
    nonZeroMemory += sign * pod.nonZeroMemory();
    // A set, as kube's HostPortInfo: a port used by two pods is freed when either leaves.
    for (HostPort p : pod.hostPorts()) {
      if (sign > 0) {
        if (usedPorts == null) {
          usedPorts = new ArrayList<>();
        }
        if (!usedPorts.contains(p)) {
          usedPorts.add(p);
        }
      } else if (usedPorts != null) {
        usedPorts.remove(p);
      }
    }
    for (String claim : pod.pvcNames()) {
      String k = pod.namespace() + "/" + claim;
      if (sign > 0) {
        if (pvcRefCounts == null) {
          pvcRefCounts = new HashMap<>();
        }
        pvcRefCounts.merge(k, 1, Integer::sum);
      } else if (pvcRefCounts != null) {
        pvcRefCounts.computeIfPresent(k, (key, v) -> v <= 1 ? null : v - 1);
      }
    }
    bump();
  }

  /** Returns the node object, or {@code null} for a ghost whose node was removed. */
  public @Nullable V1Node node() {
    return node;
  }

  /** Returns the node's name. */
  public String name() {
    return name;
  }

  /** Returns the node's labels; never {@code null}. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Returns the node's parsed taints. */
  public List<Taint> taints() {
    return taints;
  }

  /** Returns {@code spec.unschedulable}. */
  public boolean unschedulable() {
    return unschedulable;
  }

  /** Returns the pods on the node (bound and assumed); read-only. */
  public List<PodInfo> pods() {
    List<PodInfo> v = podsView;
    if (v == null) {
      v = Collections.unmodifiableList(pods);
      podsView = v;
    }
    return v;
  }

  /** Returns the pods with pod affinity or anti-affinity; read-only. */
  public List<PodInfo> podsWithAffinity() {
    List<PodInfo> v = podsWithAffinityView;
    if (v == null) {
      if (podsWithAffinity == null) {
        return List.of();
      }
      v = Collections.unmodifiableList(podsWithAffinity);
      podsWithAffinityView = v;
    }
    return v;
  }

  /** Returns the pods with required pod anti-affinity; read-only. */
  public List<PodInfo> podsWithRequiredAntiAffinity() {
    List<PodInfo> v = podsWithRequiredAntiAffinityView;
    if (v == null) {
      if (podsWithRequiredAntiAffinity == null) {
        return List.of();
      }
      v = Collections.unmodifiableList(podsWithRequiredAntiAffinity);
      podsWithRequiredAntiAffinityView = v;
    }
    return v;
  }

  /** Returns the host ports used by the pods, each once (a set, as kube's); read-only. */
  public List<HostPort> usedPorts() {
    List<HostPort> v = usedPortsView;
    if (v == null) {
      if (usedPorts == null) {
        return List.of();
      }
      v = Collections.unmodifiableList(usedPorts);
      usedPortsView = v;
    }
    return v;
  }

  /** Returns whether {@code wanted} conflicts with a used host port. */
  public boolean portConflicts(HostPort wanted) {
    List<HostPort> ports = usedPorts;
    if (ports == null) {
      return false;
    }
    for (int i = 0; i < ports.size(); i++) {
      if (wanted.conflictsWith(ports.get(i))) {
        return true;
      }
    }
    return false;
  }

  /** Returns the sum of the pods' effective requests. */
  public Resource requested() {
    Resource r = requested;
    if (r == null) {
      // a racing first read builds two equal objects, which is harmless (the record is immutable)
      r =
          new Resource(
              requestedMilliCpu,
              requestedMemory,
              requestedEphemeralStorage,
              requestedPods,
              requestedScalars);
      requested = r;
    }
    return r;
  }

  /** Returns {@code requested().milliCpu()}, read without reaching the {@link Resource}. */
  public long requestedMilliCpu() {
    return requestedMilliCpu;
  }

  /** Returns {@code requested().memory()}, read without reaching the {@link Resource}. */
  public long requestedMemory() {
    return requestedMemory;
  }

  /** Returns {@code requested().ephemeralStorage()}, read without reaching the {@link Resource}. */
  public long requestedEphemeralStorage() {
    return requestedEphemeralStorage;
  }

  /** Returns {@code allocatable().milliCpu()}, read without reaching the {@link Resource}. */
  public long allocatableMilliCpu() {
    return allocatableMilliCpu;
  }

  /** Returns {@code allocatable().memory()}, read without reaching the {@link Resource}. */
  public long allocatableMemory() {
    return allocatableMemory;
  }

  /**
   * Returns {@code allocatable().ephemeralStorage()}, read without reaching the {@link Resource}.
   */
  public long allocatableEphemeralStorage() {
    return allocatableEphemeralStorage;
  }

  /**
   * Returns {@code allocatable().allowedPodNumber()}, read without reaching the {@link Resource}.
   */
  public long allowedPodNumber() {
    return allowedPodNumber;
  }

  /** Returns {@code pods().size()}, read without reaching the list. */
  public int podCount() {
    return podCount;
  }

  /** Returns the pods' CPU requests in millicores, counting 100m for containers without one. */
  public long nonZeroMilliCpu() {
    return nonZeroMilliCpu;
  }

  /** Returns the pods' memory requests, counting 200 MiB for containers without one. */
  public long nonZeroMemory() {
    return nonZeroMemory;
  }

  /** Returns the node's allocatable resources, including the pod count. */
  public Resource allocatable() {
    return allocatable;
  }

  /** Returns the image states by normalized image name. */
  public Map<String, ImageStateSummary> imageStates() {
    return imageStates;
  }

  /** Returns the reference counts of persistent volume claims, keyed {@code namespace/claim}. */
  public Map<String, Integer> pvcRefCounts() {
    return pvcRefCounts == null ? Map.of() : Collections.unmodifiableMap(pvcRefCounts);
  }

  /** Returns the generation, which changes on every modification. */
  public long generation() {
    return generation;
  }

  @Override
  public String toString() {
    return "NodeInfo{" + name + ", pods=" + pods.size() + ", requested=" + requested() + "}";
  }
}
