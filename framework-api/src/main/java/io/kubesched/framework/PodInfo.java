package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A pod with everything the scheduling hot path needs computed once, when the pod enters the
 * scheduler (kube's {@code framework.PodInfo} plus its cached resource computation).
 *
 * <p>Immutable. The wrapped {@link V1Pod} must not be modified; a changed pod gets a new {@code
 * PodInfo}. Construction never fails for a pod the API server would accept: a pod affinity term
 * that does not parse is recorded in {@link #affinityParseError()} (InterPodAffinity rejects the
 * pod with it) and node affinity terms that do not parse match nothing.
 */
public final class PodInfo {
  private final V1Pod pod;
  private final String uid;
  private final String namespace;
  private final String name;
  private final String key;
  private final Map<String, String> labels;
  private final int priority;
  private final Resource requests;
  private final long nonZeroMilliCpu;
  private final long nonZeroMemory;
  private final List<Toleration> tolerations;
  private final Map<String, String> nodeSelector;
  private final NodeSelector requiredNodeAffinity;
  private final List<WeightedNodeSelectorTerm> preferredNodeAffinity;
  private final String preferredNodeAffinityError;
  private final List<AffinityTerm> requiredAffinityTerms;
  private final List<AffinityTerm> requiredAntiAffinityTerms;
  private final List<WeightedAffinityTerm> preferredAffinityTerms;
  private final List<WeightedAffinityTerm> preferredAntiAffinityTerms;
  private final String affinityParseError;
  private final boolean hasAffinity;
  private final boolean hasRequiredAntiAffinity;
  private final List<HostPort> hostPorts;
  private final List<V1TopologySpreadConstraint> topologySpreadConstraints;
  private final List<String> schedulingGates;
  private final List<String> images;
  private final List<String> pvcNames;
  private final List<V1OwnerReference> ownerReferences;
  // status.startTime of the wrapped pod, read once (preemption sorts and weighs victims by it)
  private final @Nullable OffsetDateTime startTime;
  // the flat figures of {@code requests} (a node adds and subtracts them without reaching it)
  private final long requestsMilliCpu;
  private final long requestsMemory;
  private final long requestsEphemeralStorage;
  private final long requestsPods;
  private final boolean requestsScalars;

  private PodInfo(V1Pod pod) {
    this.pod = Objects.requireNonNull(pod, "pod must not be null");
    V1ObjectMeta meta = pod.getMetadata() == null ? new V1ObjectMeta() : pod.getMetadata();
    V1PodSpec spec = pod.getSpec() == null ? new V1PodSpec() : pod.getSpec();
    this.namespace = meta.getNamespace() == null ? "" : meta.getNamespace();
    this.name = meta.getName() == null ? "" : meta.getName();
    this.key = key(namespace, name);
    this.uid = uidOf(pod);
    this.labels = fastCopy(meta.getLabels());
    this.ownerReferences =
        meta.getOwnerReferences() == null ? List.of() : List.copyOf(meta.getOwnerReferences());
    this.priority = spec.getPriority() == null ? 0 : spec.getPriority();
    this.requests = PodRequests.of(spec);
    this.requestsMilliCpu = requests.milliCpu();
    this.requestsMemory = requests.memory();
    this.requestsEphemeralStorage = requests.ephemeralStorage();
    this.requestsPods = requests.allowedPodNumber();
    this.requestsScalars = !requests.scalarResources().isEmpty();
    this.startTime = startTimeOf(pod);
    Resource nonZero = PodRequests.withDefaults(spec, requests);
    this.nonZeroMilliCpu = nonZero.milliCpu();
    this.nonZeroMemory = nonZero.memory();

    List<Toleration> tols = new ArrayList<>();
    if (spec.getTolerations() != null) {
      for (V1Toleration t : spec.getTolerations()) {
        tols.add(Toleration.of(t));
      }
    }
    this.tolerations = List.copyOf(tols);
    this.nodeSelector = fastCopy(spec.getNodeSelector());

    V1Affinity affinity = spec.getAffinity();
    V1NodeAffinity nodeAffinity = affinity == null ? null : affinity.getNodeAffinity();
    this.requiredNodeAffinity =
        nodeAffinity == null
                || nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution() == null
            ? null
            : NodeSelector.compile(
                nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution());
    List<WeightedNodeSelectorTerm> preferred = new ArrayList<>();
    String preferredError = null;
    if (nodeAffinity != null
        && nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution() != null) {
      for (V1PreferredSchedulingTerm t :
          nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()) {
        if (t.getWeight() == null || t.getWeight() == 0) {
          continue;
        }
        NodeSelector.Term term = NodeSelector.Term.compile(t.getPreference());
        if (term.parseError() != null && preferredError == null) {
          preferredError = term.parseError();
        }
        preferred.add(new WeightedNodeSelectorTerm(term, t.getWeight()));
      }
    }
    this.preferredNodeAffinity = List.copyOf(preferred);
    this.preferredNodeAffinityError = preferredError;

    V1PodAffinity podAffinity = affinity == null ? null : affinity.getPodAffinity();
    V1PodAntiAffinity podAntiAffinity = affinity == null ? null : affinity.getPodAntiAffinity();
    this.hasAffinity = podAffinity != null || podAntiAffinity != null;
    this.hasRequiredAntiAffinity =
        podAntiAffinity != null
            && podAntiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution() != null
            && !podAntiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution().isEmpty();
    List<AffinityTerm> reqAff = List.of();
    List<AffinityTerm> reqAnti = List.of();
    List<WeightedAffinityTerm> prefAff = List.of();
    List<WeightedAffinityTerm> prefAnti = List.of();
    String parseError = null;
    try {
      if (podAffinity != null) {
        reqAff = terms(podAffinity.getRequiredDuringSchedulingIgnoredDuringExecution());
        prefAff = weightedTerms(podAffinity.getPreferredDuringSchedulingIgnoredDuringExecution());
      }
      if (podAntiAffinity != null) {
        reqAnti = terms(podAntiAffinity.getRequiredDuringSchedulingIgnoredDuringExecution());
        prefAnti =
            weightedTerms(podAntiAffinity.getPreferredDuringSchedulingIgnoredDuringExecution());
      }
    } catch (IllegalArgumentException e) {
      parseError = e.getMessage();
    }
    this.requiredAffinityTerms = reqAff;
    this.requiredAntiAffinityTerms = reqAnti;
    this.preferredAffinityTerms = prefAff;
    this.preferredAntiAffinityTerms = prefAnti;
    this.affinityParseError = parseError;

    List<HostPort> ports = new ArrayList<>();
    List<String> imgs = new ArrayList<>();
    if (spec.getInitContainers() != null) {
      for (V1Container c : spec.getInitContainers()) {
        if (c.getImage() != null) {
          imgs.add(c.getImage());
        } else {
          imgs.add("");
        }
        // Sidecars run for the pod's whole life, so their host ports are in use (kube's
        // GetHostPorts, since v1.33.6 / v1.34).
        if ("Always".equals(c.getRestartPolicy())) {
          addHostPorts(c, ports);
        }
      }
    }
    if (spec.getContainers() != null) {
      for (V1Container c : spec.getContainers()) {
        imgs.add(c.getImage() == null ? "" : c.getImage());
        addHostPorts(c, ports);
      }
    }
    this.hostPorts = List.copyOf(ports);
    this.images = List.copyOf(imgs);
    this.topologySpreadConstraints =
        spec.getTopologySpreadConstraints() == null
            ? List.of()
            : List.copyOf(spec.getTopologySpreadConstraints());
    List<String> gates = new ArrayList<>();
    if (spec.getSchedulingGates() != null) {
      for (V1PodSchedulingGate g : spec.getSchedulingGates()) {
        gates.add(g.getName());
      }
    }
    this.schedulingGates = List.copyOf(gates);
    List<String> pvcs = new ArrayList<>();
    if (spec.getVolumes() != null) {
      for (V1Volume v : spec.getVolumes()) {
        if (v.getPersistentVolumeClaim() != null
            && v.getPersistentVolumeClaim().getClaimName() != null) {
          pvcs.add(v.getPersistentVolumeClaim().getClaimName());
        }
      }
    }
    this.pvcNames = List.copyOf(pvcs);
  }

  private static void addHostPorts(V1Container c, List<HostPort> ports) {
    if (c.getPorts() == null) {
      return;
    }
    for (V1ContainerPort p : c.getPorts()) {
      if (p.getHostPort() != null && p.getHostPort() > 0) {
        ports.add(new HostPort(p.getHostIP(), p.getProtocol(), p.getHostPort()));
      }
    }
  }

  private List<AffinityTerm> terms(List<V1PodAffinityTerm> list) {
    if (list == null || list.isEmpty()) {
      return List.of();
    }
    List<AffinityTerm> out = new ArrayList<>(list.size());
    for (V1PodAffinityTerm t : list) {
      out.add(AffinityTerm.parse(namespace, t));
    }
    return List.copyOf(out);
  }

  private List<WeightedAffinityTerm> weightedTerms(List<V1WeightedPodAffinityTerm> list) {
    if (list == null || list.isEmpty()) {
      return List.of();
    }
    List<WeightedAffinityTerm> out = new ArrayList<>(list.size());
    for (V1WeightedPodAffinityTerm t : list) {
      out.add(
          new WeightedAffinityTerm(
              AffinityTerm.parse(namespace, t.getPodAffinityTerm()),
              t.getWeight() == null ? 0 : t.getWeight()));
    }
    return List.copyOf(out);
  }

  /**
   * Returns an immutable hash-based copy: maps decoded from JSON are tree maps whose lookups
   * dominate selector matching on the hot path.
   */
  static Map<String, String> fastCopy(Map<String, String> m) {
    return m == null || m.isEmpty() ? Map.of() : Map.copyOf(m);
  }

  /**
   * Returns what {@link #uid()} of {@code pod}'s info is (its UID, or {@code namespace/name} when
   * it has none), without parsing the pod.
   */
  public static String uidOf(V1Pod pod) {
    V1ObjectMeta meta = pod.getMetadata();
    if (meta != null && meta.getUid() != null && !meta.getUid().isEmpty()) {
      return meta.getUid();
    }
    String ns = meta == null || meta.getNamespace() == null ? "" : meta.getNamespace();
    String n = meta == null || meta.getName() == null ? "" : meta.getName();
    return key(ns, n);
  }

  /**
   * Returns {@code namespace + "/" + name}, the key of a namespaced object, made in one buffer of
   * the right size.
   */
  public static String key(String namespace, String name) {
    return new StringBuilder(namespace.length() + 1 + name.length())
        .append(namespace)
        .append('/')
        .append(name)
        .toString();
  }

  /** Parses {@code pod}; never fails for a pod the API server accepts. */
  public static PodInfo of(V1Pod pod) {
    return new PodInfo(pod);
  }

  /** A copy of {@code other} wrapping {@code pod}; see {@link #withNodeName}. */
  private PodInfo(PodInfo other, V1Pod pod) {
    this.pod = pod;
    this.startTime = startTimeOf(pod);
    this.requestsMilliCpu = other.requestsMilliCpu;
    this.requestsMemory = other.requestsMemory;
    this.requestsEphemeralStorage = other.requestsEphemeralStorage;
    this.requestsPods = other.requestsPods;
    this.requestsScalars = other.requestsScalars;
    this.uid = other.uid;
    this.namespace = other.namespace;
    this.name = other.name;
    this.key = other.key;
    this.labels = other.labels;
    this.priority = other.priority;
    this.requests = other.requests;
    this.nonZeroMilliCpu = other.nonZeroMilliCpu;
    this.nonZeroMemory = other.nonZeroMemory;
    this.tolerations = other.tolerations;
    this.nodeSelector = other.nodeSelector;
    this.requiredNodeAffinity = other.requiredNodeAffinity;
    this.preferredNodeAffinity = other.preferredNodeAffinity;
    this.preferredNodeAffinityError = other.preferredNodeAffinityError;
    this.requiredAffinityTerms = other.requiredAffinityTerms;
    this.requiredAntiAffinityTerms = other.requiredAntiAffinityTerms;
    this.preferredAffinityTerms = other.preferredAffinityTerms;
    this.preferredAntiAffinityTerms = other.preferredAntiAffinityTerms;
    this.affinityParseError = other.affinityParseError;
    this.hasAffinity = other.hasAffinity;
    this.hasRequiredAntiAffinity = other.hasRequiredAntiAffinity;
    this.hostPorts = other.hostPorts;
    this.topologySpreadConstraints = other.topologySpreadConstraints;
    this.schedulingGates = other.schedulingGates;
    this.images = other.images;
    this.pvcNames = other.pvcNames;
    this.ownerReferences = other.ownerReferences;
  }

  /**
   * Returns this pod's info for {@code revision}, a revision of the same pod that differs from
   * {@link #pod()} in {@code spec.nodeName} only (the assumed pod of a scheduling cycle): every
   * value computed from the pod is shared, none is computed again. A revision that differs in
   * anything else must get its own {@link #of}.
   *
   * @throws IllegalArgumentException when {@code revision} is another pod (uid, namespace or name)
   */
  public PodInfo withNodeName(V1Pod revision) {
    PodInfo check = new PodInfo(this, revision);
    V1ObjectMeta meta =
        revision.getMetadata() == null ? new V1ObjectMeta() : revision.getMetadata();
    String ns = meta.getNamespace() == null ? "" : meta.getNamespace();
    String n = meta.getName() == null ? "" : meta.getName();
    String u = meta.getUid() == null || meta.getUid().isEmpty() ? ns + "/" + n : meta.getUid();
    if (!ns.equals(namespace) || !n.equals(name) || !u.equals(uid)) {
      throw new IllegalArgumentException(
          "withNodeName: " + ns + "/" + n + " is not a revision of " + key);
    }
    return check;
  }

  /**
   * Returns the info of {@code revision}, a later revision of this pod: this info's computed values
   * shared when the revision refers to the very objects they are computed from (the metadata's
   * namespace, name, uid, labels and owner references; the spec's priority, containers, init
   * containers, overhead, tolerations, node selector, affinity, topology spread constraints,
   * scheduling gates and volumes; as an API server's copy of a pod changed in its node name or
   * status does), else {@link #of}. Either way the result equals {@code PodInfo.of(revision)}.
   */
  public PodInfo forRevision(V1Pod revision) {
    V1Pod old = pod;
    if (revision == old) {
      return this;
    }
    V1ObjectMeta m = revision.getMetadata();
    V1ObjectMeta om = old.getMetadata();
    V1PodSpec s = revision.getSpec();
    V1PodSpec os = old.getSpec();
    if (m == null || om == null || s == null || os == null) {
      return of(revision);
    }
    boolean same =
        Objects.equals(m.getNamespace(), om.getNamespace())
            && Objects.equals(m.getName(), om.getName())
            && Objects.equals(m.getUid(), om.getUid())
            && m.getLabels() == om.getLabels()
            && m.getOwnerReferences() == om.getOwnerReferences()
            && Objects.equals(s.getPriority(), os.getPriority())
            && s.getContainers() == os.getContainers()
            && s.getInitContainers() == os.getInitContainers()
            && s.getOverhead() == os.getOverhead()
            && s.getTolerations() == os.getTolerations()
            && s.getNodeSelector() == os.getNodeSelector()
            && s.getAffinity() == os.getAffinity()
            && s.getTopologySpreadConstraints() == os.getTopologySpreadConstraints()
            && s.getSchedulingGates() == os.getSchedulingGates()
            && s.getVolumes() == os.getVolumes();
    return same ? new PodInfo(this, revision) : of(revision);
  }

  /** Returns the wrapped pod; do not modify it. */
  public V1Pod pod() {
    return pod;
  }

  /** Returns the pod's UID, or {@code namespace/name} when it has none. */
  public String uid() {
    return uid;
  }

  /** Returns the namespace, {@code ""} when unset. */
  public String namespace() {
    return namespace;
  }

  /** Returns the name. */
  public String name() {
    return name;
  }

  /** Returns {@code namespace/name}. */
  public String key() {
    return key;
  }

  /** Returns the labels; never {@code null}. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Returns {@code spec.priority}, 0 when unset. */
  public int priority() {
    return priority;
  }

  /** Returns the effective requests (init containers, sidecars and overhead accounted for). */
  public Resource requests() {
    return requests;
  }

  /** Returns the CPU request in millicores counting 100m for containers without one. */
  public long nonZeroMilliCpu() {
    return nonZeroMilliCpu;
  }

  /** Returns the memory request in bytes counting 200 MiB for containers without one. */
  public long nonZeroMemory() {
    return nonZeroMemory;
  }

  /** Returns the parsed tolerations. */
  public List<Toleration> tolerations() {
    return tolerations;
  }

  /** Returns {@code spec.nodeSelector}; never {@code null}. */
  public Map<String, String> nodeSelector() {
    return nodeSelector;
  }

  /** Returns the compiled required node affinity, or {@code null} when the pod has none. */
  public @Nullable NodeSelector requiredNodeAffinity() {
    return requiredNodeAffinity;
  }

  /** Returns the compiled preferred node affinity terms with non-zero weight. */
  public List<WeightedNodeSelectorTerm> preferredNodeAffinity() {
    return preferredNodeAffinity;
  }

  /** Returns why a preferred node affinity term did not parse, or {@code null}. */
  public @Nullable String preferredNodeAffinityError() {
    return preferredNodeAffinityError;
  }

  /** Returns the required pod affinity terms. */
  public List<AffinityTerm> requiredAffinityTerms() {
    return requiredAffinityTerms;
  }

  /** Returns the required pod anti-affinity terms. */
  public List<AffinityTerm> requiredAntiAffinityTerms() {
    return requiredAntiAffinityTerms;
  }

  /** Returns the preferred pod affinity terms. */
  public List<WeightedAffinityTerm> preferredAffinityTerms() {
    return preferredAffinityTerms;
  }

  /** Returns the preferred pod anti-affinity terms. */
  public List<WeightedAffinityTerm> preferredAntiAffinityTerms() {
    return preferredAntiAffinityTerms;
  }

  /** Returns why a pod (anti-)affinity term did not parse, or {@code null}. */
  public @Nullable String affinityParseError() {
    return affinityParseError;
  }

  /** Returns whether the pod has pod affinity or anti-affinity of any kind. */
  public boolean hasAffinity() {
    return hasAffinity;
  }

  /** Returns whether the pod has required pod anti-affinity terms. */
  public boolean hasRequiredAntiAffinity() {
    return hasRequiredAntiAffinity;
  }

  /**
   * Returns the host ports ({@code hostPort > 0}) of the sidecars (restartable init containers)
   * then of the regular containers, as kube's {@code GetHostPorts}.
   */
  public List<HostPort> hostPorts() {
    return hostPorts;
  }

  /** Returns {@code spec.topologySpreadConstraints}; never {@code null}. */
  public List<V1TopologySpreadConstraint> topologySpreadConstraints() {
    return topologySpreadConstraints;
  }

  /** Returns the names of the scheduling gates. */
  public List<String> schedulingGates() {
    return schedulingGates;
  }

  /** Returns the images of the init containers then the regular containers. */
  public List<String> images() {
    return images;
  }

  /** Returns the names of the persistent volume claims the pod mounts. */
  public List<String> pvcNames() {
    return pvcNames;
  }

  /** Returns the owner references; never {@code null}. */
  public List<V1OwnerReference> ownerReferences() {
    return ownerReferences;
  }

  /** Returns {@code spec.nodeName}, or {@code null}. */
  public @Nullable String nodeName() {
    return pod.getSpec() == null ? null : pod.getSpec().getNodeName();
  }

  /** Returns {@code status.nominatedNodeName}, or {@code null} when unset or empty. */
  public @Nullable String nominatedNodeName() {
    String n = pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName();
    return n == null || n.isEmpty() ? null : n;
  }

  /** Returns {@code spec.schedulerName}, {@code default-scheduler} when unset. */
  public String schedulerName() {
    String s = pod.getSpec() == null ? null : pod.getSpec().getSchedulerName();
    return s == null || s.isEmpty() ? SchedulerConstants.DEFAULT_SCHEDULER_NAME : s;
  }

  /** Returns {@code spec.preemptionPolicy}, {@code PreemptLowerPriority} when unset. */
  public String preemptionPolicy() {
    String p = pod.getSpec() == null ? null : pod.getSpec().getPreemptionPolicy();
    return p == null ? "PreemptLowerPriority" : p;
  }

  /** Returns whether the pod is being deleted. */
  public boolean isTerminating() {
    return pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
  }

  /** Returns {@code status.startTime}, or {@code null}. */
  public @Nullable OffsetDateTime startTime() {
    return startTime;
  }

  private static @Nullable OffsetDateTime startTimeOf(V1Pod pod) {
    return pod.getStatus() == null ? null : pod.getStatus().getStartTime();
  }

  /** Returns {@code requests().milliCpu()}, read without reaching the {@link Resource}. */
  long requestsMilliCpu() {
    return requestsMilliCpu;
  }

  /** Returns {@code requests().memory()}, read without reaching the {@link Resource}. */
  long requestsMemory() {
    return requestsMemory;
  }

  /** Returns {@code requests().ephemeralStorage()}, read without reaching the {@link Resource}. */
  long requestsEphemeralStorage() {
    return requestsEphemeralStorage;
  }

  /** Returns {@code requests().allowedPodNumber()}, read without reaching the {@link Resource}. */
  long requestsPods() {
    return requestsPods;
  }

  /** Returns whether {@code requests()} has scalar resources. */
  boolean requestsScalars() {
    return requestsScalars;
  }

  @Override
  public String toString() {
    return key;
  }
}
