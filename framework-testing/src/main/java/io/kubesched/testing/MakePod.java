package io.kubesched.testing;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1LabelSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimVolumeSource;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodAntiAffinity;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Quantities;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A fluent builder of client-java {@link V1Pod}s for tests (kube's {@code st.MakePod()}).
 *
 * <p>Defaults are deterministic: namespace {@code default}, UID {@code <namespace>/<name>} unless
 * {@link #uid(String)} is called, no containers until {@link #container(String)} or one of the
 * {@code req} methods adds one. Each {@link #obj()} call builds a new, independent pod from the
 * recorded steps, so a builder can be reused and extended; client-java objects passed in (such as a
 * {@link V1Affinity}) are shared, not copied. Quantities are strings parsed with {@link
 * Quantities#parse(String)} when the builder method is called, so a bad quantity fails at once with
 * a message naming it.
 *
 * <p>Containers added by {@link #req}, {@link #initReq} and {@link #sidecarReq} run the pause image
 * and are named {@code con<i>}, {@code init-con<i>} and {@code sidecar-con<i>} like upstream's test
 * wrappers.
 */
public final class MakePod {
  /** The image of the containers added by the {@code req} methods, as in upstream tests. */
  public static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";

  /** The fixed deletion timestamp set by {@link #terminating()}. */
  public static final OffsetDateTime DELETION_TIMESTAMP =
      OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);

  private final List<Consumer<V1Pod>> steps = new ArrayList<>();
  private String namespace = "default";
  private String name;
  private String uid;

  private MakePod() {}

  /** Starts a pod in namespace {@code default} with no name, containers or labels. */
  public static MakePod pod() {
    return new MakePod();
  }

  /** Sets {@code metadata.name}. */
  public MakePod name(String name) {
    this.name = name;
    return this;
  }

  /** Sets {@code metadata.namespace}. */
  public MakePod namespace(String namespace) {
    this.namespace = namespace;
    return this;
  }

  /** Sets {@code metadata.uid} (otherwise {@code <namespace>/<name>}). */
  public MakePod uid(String uid) {
    this.uid = uid;
    return this;
  }

  /** Adds the label {@code key=value}. */
  public MakePod label(String key, String value) {
    steps.add(p -> p.getMetadata().putLabelsItem(key, value));
    return this;
  }

  /** Adds all of {@code labels}. */
  public MakePod labels(Map<String, String> labels) {
    Map<String, String> copy = new LinkedHashMap<>(labels);
    steps.add(p -> copy.forEach(p.getMetadata()::putLabelsItem));
    return this;
  }

  /** Adds the annotation {@code key=value}. */
  public MakePod annotation(String key, String value) {
    steps.add(p -> p.getMetadata().putAnnotationsItem(key, value));
    return this;
  }

  /** Sets {@code spec.nodeName}: the pod is bound (or assumed) to that node. */
  public MakePod node(String nodeName) {
    steps.add(p -> p.getSpec().setNodeName(nodeName));
    return this;
  }

  /** Sets {@code status.nominatedNodeName}. */
  public MakePod nominatedNode(String nodeName) {
    steps.add(p -> p.getStatus().setNominatedNodeName(nodeName));
    return this;
  }

  /** Sets {@code spec.schedulerName}. */
  public MakePod schedulerName(String schedulerName) {
    steps.add(p -> p.getSpec().setSchedulerName(schedulerName));
    return this;
  }

  /** Sets {@code spec.priority}. */
  public MakePod priority(int priority) {
    steps.add(p -> p.getSpec().setPriority(priority));
    return this;
  }

  /** Sets {@code spec.priorityClassName}. */
  public MakePod priorityClassName(String className) {
    steps.add(p -> p.getSpec().setPriorityClassName(className));
    return this;
  }

  /** Sets {@code spec.preemptionPolicy}: {@code Never} or {@code PreemptLowerPriority}. */
  public MakePod preemptionPolicy(String policy) {
    steps.add(p -> p.getSpec().setPreemptionPolicy(policy));
    return this;
  }

  /** Sets {@code status.phase} ({@code Pending}, {@code Running}, {@code Succeeded}, ...). */
  public MakePod phase(String phase) {
    steps.add(p -> p.getStatus().setPhase(phase));
    return this;
  }

  /** Appends a container named {@code con<i>} running {@code image}, without requests. */
  public MakePod container(String image) {
    steps.add(
        p -> {
          List<V1Container> cs = containers(p.getSpec());
          cs.add(new V1Container().name("con" + cs.size()).image(image));
        });
    return this;
  }

  /**
   * Appends a container requesting the given resources, e.g. {@code req("cpu", "500m", "memory",
   * "1Gi")}; with no arguments the container requests nothing.
   */
  public MakePod req(String... resourceQuantityPairs) {
    Map<String, Quantity> res = resources("req", resourceQuantityPairs);
    steps.add(
        p -> {
          List<V1Container> cs = containers(p.getSpec());
          cs.add(container("con" + cs.size(), res, null));
        });
    return this;
  }

  /** Sets the limits of the last container (appending one without requests if there is none). */
  public MakePod lim(String... resourceQuantityPairs) {
    Map<String, Quantity> res = resources("lim", resourceQuantityPairs);
    steps.add(
        p -> {
          V1Container c = lastContainer(p.getSpec());
          if (c.getResources() == null) {
            c.setResources(new V1ResourceRequirements());
          }
          c.getResources().setLimits(new LinkedHashMap<>(res));
        });
    return this;
  }

  /** Appends a regular (non-restartable) init container requesting the given resources. */
  public MakePod initReq(String... resourceQuantityPairs) {
    Map<String, Quantity> res = resources("initReq", resourceQuantityPairs);
    steps.add(
        p -> {
          List<V1Container> cs = initContainers(p.getSpec());
          cs.add(container("init-con" + cs.size(), res, null));
        });
    return this;
  }

  /**
   * Appends a sidecar: an init container with {@code restartPolicy: Always} requesting the given
   * resources.
   */
  public MakePod sidecarReq(String... resourceQuantityPairs) {
    Map<String, Quantity> res = resources("sidecarReq", resourceQuantityPairs);
    steps.add(
        p -> {
          List<V1Container> cs = initContainers(p.getSpec());
          cs.add(container("sidecar-con" + cs.size(), res, "Always"));
        });
    return this;
  }

  /** Sets {@code spec.overhead}. */
  public MakePod overhead(String... resourceQuantityPairs) {
    Map<String, Quantity> res = resources("overhead", resourceQuantityPairs);
    steps.add(p -> p.getSpec().setOverhead(new LinkedHashMap<>(res)));
    return this;
  }

  /** Adds TCP host port {@code port} on all addresses to the last container. */
  public MakePod hostPort(int port) {
    return hostPort(null, "TCP", port);
  }

  /**
   * Adds a host port to the last container (appending a container if there is none); {@code ip} may
   * be {@code null} for all addresses. The container port equals the host port.
   */
  public MakePod hostPort(String ip, String protocol, int port) {
    steps.add(
        p ->
            lastContainer(p.getSpec())
                .addPortsItem(
                    new V1ContainerPort()
                        .containerPort(port)
                        .hostPort(port)
                        .hostIP(ip)
                        .protocol(protocol)));
    return this;
  }

  /** Adds a toleration with operator {@code Equal}. */
  public MakePod toleration(String key, String value, String effect) {
    return toleration(new V1Toleration().key(key).operator("Equal").value(value).effect(effect));
  }

  /** Adds a toleration with operator {@code Exists}; {@code effect} may be {@code null}. */
  public MakePod tolerationExists(String key, String effect) {
    return toleration(new V1Toleration().key(key).operator("Exists").effect(effect));
  }

  /** Adds {@code toleration} as given. */
  public MakePod toleration(V1Toleration toleration) {
    steps.add(p -> p.getSpec().addTolerationsItem(toleration));
    return this;
  }

  /** Adds all of {@code selector} to {@code spec.nodeSelector}. */
  public MakePod nodeSelector(Map<String, String> selector) {
    Map<String, String> copy = new LinkedHashMap<>(selector);
    steps.add(p -> copy.forEach(p.getSpec()::putNodeSelectorItem));
    return this;
  }

  /** Adds a match expression {@code key In values} to the first required node selector term. */
  public MakePod nodeAffinityIn(String key, String... values) {
    return nodeAffinityExpression(key, "In", values);
  }

  /** Adds a match expression {@code key NotIn values} to the first required node selector term. */
  public MakePod nodeAffinityNotIn(String key, String... values) {
    return nodeAffinityExpression(key, "NotIn", values);
  }

  private MakePod nodeAffinityExpression(String key, String op, String... values) {
    List<String> vs = List.of(values);
    steps.add(
        p -> {
          V1NodeAffinity na = nodeAffinity(p);
          V1NodeSelector required = na.getRequiredDuringSchedulingIgnoredDuringExecution();
          if (required == null) {
            required = new V1NodeSelector();
            na.setRequiredDuringSchedulingIgnoredDuringExecution(required);
          }
          if (required.getNodeSelectorTerms() == null
              || required.getNodeSelectorTerms().isEmpty()) {
            required.addNodeSelectorTermsItem(new V1NodeSelectorTerm());
          }
          required
              .getNodeSelectorTerms()
              .get(0)
              .addMatchExpressionsItem(
                  new V1NodeSelectorRequirement()
                      .key(key)
                      .operator(op)
                      .values(new ArrayList<>(vs)));
        });
    return this;
  }

  /** Replaces the node affinity with {@code nodeAffinity}. */
  public MakePod nodeAffinity(V1NodeAffinity nodeAffinity) {
    steps.add(p -> affinity(p).setNodeAffinity(nodeAffinity));
    return this;
  }

  /** Adds a preferred node affinity term {@code key In valuesIn} with {@code weight}. */
  public MakePod preferredNodeAffinity(int weight, String key, String... valuesIn) {
    List<String> vs = List.of(valuesIn);
    steps.add(
        p ->
            nodeAffinity(p)
                .addPreferredDuringSchedulingIgnoredDuringExecutionItem(
                    new V1PreferredSchedulingTerm()
                        .weight(weight)
                        .preference(
                            new V1NodeSelectorTerm()
                                .addMatchExpressionsItem(
                                    new V1NodeSelectorRequirement()
                                        .key(key)
                                        .operator("In")
                                        .values(new ArrayList<>(vs))))));
    return this;
  }

  /** Adds a required pod affinity term: pods with {@code labelKey In valuesIn} in the domain. */
  public MakePod podAffinity(String topologyKey, String labelKey, String... valuesIn) {
    V1PodAffinityTerm term = podAffinityTerm(topologyKey, labelKey, "In", valuesIn);
    steps.add(p -> podAffinity(p).addRequiredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Adds a required pod affinity term: pods having label {@code labelKey} in the domain. */
  public MakePod podAffinityExists(String topologyKey, String labelKey) {
    V1PodAffinityTerm term = podAffinityTerm(topologyKey, labelKey, "Exists");
    steps.add(p -> podAffinity(p).addRequiredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Adds a required anti-affinity term: no pod with {@code labelKey In valuesIn} in the domain. */
  public MakePod podAntiAffinity(String topologyKey, String labelKey, String... valuesIn) {
    V1PodAffinityTerm term = podAffinityTerm(topologyKey, labelKey, "In", valuesIn);
    steps.add(p -> podAntiAffinity(p).addRequiredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Adds a required anti-affinity term: no pod having label {@code labelKey} in the domain. */
  public MakePod podAntiAffinityExists(String topologyKey, String labelKey) {
    V1PodAffinityTerm term = podAffinityTerm(topologyKey, labelKey, "Exists");
    steps.add(p -> podAntiAffinity(p).addRequiredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Adds a preferred pod affinity term {@code labelKey In valuesIn} with {@code weight}. */
  public MakePod preferredPodAffinity(
      int weight, String topologyKey, String labelKey, String... valuesIn) {
    V1WeightedPodAffinityTerm term =
        new V1WeightedPodAffinityTerm()
            .weight(weight)
            .podAffinityTerm(podAffinityTerm(topologyKey, labelKey, "In", valuesIn));
    steps.add(p -> podAffinity(p).addPreferredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Adds a preferred pod anti-affinity term {@code labelKey In valuesIn} with {@code weight}. */
  public MakePod preferredPodAntiAffinity(
      int weight, String topologyKey, String labelKey, String... valuesIn) {
    V1WeightedPodAffinityTerm term =
        new V1WeightedPodAffinityTerm()
            .weight(weight)
            .podAffinityTerm(podAffinityTerm(topologyKey, labelKey, "In", valuesIn));
    steps.add(p -> podAntiAffinity(p).addPreferredDuringSchedulingIgnoredDuringExecutionItem(term));
    return this;
  }

  /** Replaces everything affinity-related with {@code affinity}. */
  public MakePod affinity(V1Affinity affinity) {
    steps.add(p -> p.getSpec().setAffinity(affinity));
    return this;
  }

  /**
   * Adds a topology spread constraint configured by {@code spec}, e.g. {@code spreadConstraint(s ->
   * s.maxSkew(1).topologyKey("zone").selectorExists("foo"))}. Defaults: {@code maxSkew 1}, {@code
   * whenUnsatisfiable DoNotSchedule}, no selector.
   *
   * @throws IllegalArgumentException when no topology key is set
   */
  public MakePod spreadConstraint(Consumer<Spread> spec) {
    Spread s = new Spread();
    spec.accept(s);
    V1TopologySpreadConstraint c = s.build();
    steps.add(p -> p.getSpec().addTopologySpreadConstraintsItem(c));
    return this;
  }

  /** Adds a scheduling gate. */
  public MakePod schedulingGate(String gateName) {
    steps.add(p -> p.getSpec().addSchedulingGatesItem(new V1PodSchedulingGate().name(gateName)));
    return this;
  }

  /** Adds a volume {@code claimName} backed by the persistent volume claim of that name. */
  public MakePod pvc(String claimName) {
    steps.add(
        p ->
            p.getSpec()
                .addVolumesItem(
                    new V1Volume()
                        .name(claimName)
                        .persistentVolumeClaim(
                            new V1PersistentVolumeClaimVolumeSource().claimName(claimName))));
    return this;
  }

  /**
   * Adds a controller owner reference of {@code kind}/{@code name} with uid {@code <kind>/<name>}
   * and the API version of that kind ({@code apps/v1} for ReplicaSet, StatefulSet, Deployment and
   * DaemonSet, {@code batch/v1} for Job and CronJob, {@code v1} otherwise).
   */
  public MakePod ownerReference(String kind, String name) {
    String apiVersion =
        switch (kind) {
          case "ReplicaSet", "StatefulSet", "Deployment", "DaemonSet" -> "apps/v1";
          case "Job", "CronJob" -> "batch/v1";
          default -> "v1";
        };
    steps.add(
        p ->
            p.getMetadata()
                .addOwnerReferencesItem(
                    new V1OwnerReference()
                        .apiVersion(apiVersion)
                        .kind(kind)
                        .name(name)
                        .uid(kind + "/" + name)
                        .controller(true)));
    return this;
  }

  /** Sets {@code status.startTime}. */
  public MakePod startTime(OffsetDateTime time) {
    steps.add(p -> p.getStatus().setStartTime(time));
    return this;
  }

  /** Sets {@code metadata.creationTimestamp}. */
  public MakePod creationTimestamp(OffsetDateTime time) {
    steps.add(p -> p.getMetadata().setCreationTimestamp(time));
    return this;
  }

  /** Marks the pod as being deleted ({@code deletionTimestamp} = {@link #DELETION_TIMESTAMP}). */
  public MakePod terminating() {
    steps.add(p -> p.getMetadata().setDeletionTimestamp(DELETION_TIMESTAMP));
    return this;
  }

  /** Builds a new pod from the recorded steps; every call returns an independent object. */
  public V1Pod obj() {
    V1Pod p =
        new V1Pod()
            .apiVersion("v1")
            .kind("Pod")
            .metadata(
                new V1ObjectMeta()
                    .name(name)
                    .namespace(namespace)
                    .uid(uid != null ? uid : namespace + "/" + (name == null ? "" : name)))
            .spec(new V1PodSpec())
            .status(new V1PodStatus());
    for (Consumer<V1Pod> step : steps) {
      step.accept(p);
    }
    return p;
  }

  /** Builds the pod and wraps it in a {@link PodInfo}. */
  public PodInfo info() {
    return PodInfo.of(obj());
  }

  // ---- helpers

  static Map<String, Quantity> resources(String method, String... pairs) {
    if (pairs.length % 2 != 0) {
      throw new IllegalArgumentException(
          method
              + "(): expected resource/quantity pairs, got an odd number of arguments "
              + Arrays.toString(pairs));
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      String resource = Objects.requireNonNull(pairs[i], method + "(): resource name is null");
      try {
        out.put(resource, Quantities.parse(pairs[i + 1]));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            method + "(): resource " + resource + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  private static V1Container container(String name, Map<String, Quantity> req, String restart) {
    V1Container c = new V1Container().name(name).image(PAUSE_IMAGE);
    if (!req.isEmpty()) {
      c.setResources(new V1ResourceRequirements().requests(new LinkedHashMap<>(req)));
    }
    if (restart != null) {
      c.setRestartPolicy(restart);
    }
    return c;
  }

  private static List<V1Container> containers(V1PodSpec spec) {
    if (spec.getContainers() == null) {
      spec.setContainers(new ArrayList<>());
    }
    return spec.getContainers();
  }

  private static List<V1Container> initContainers(V1PodSpec spec) {
    if (spec.getInitContainers() == null) {
      spec.setInitContainers(new ArrayList<>());
    }
    return spec.getInitContainers();
  }

  private static V1Container lastContainer(V1PodSpec spec) {
    List<V1Container> cs = containers(spec);
    if (cs.isEmpty()) {
      cs.add(new V1Container().name("con0").image(PAUSE_IMAGE));
    }
    return cs.get(cs.size() - 1);
  }

  private static V1Affinity affinity(V1Pod p) {
    if (p.getSpec().getAffinity() == null) {
      p.getSpec().setAffinity(new V1Affinity());
    }
    return p.getSpec().getAffinity();
  }

  private static V1NodeAffinity nodeAffinity(V1Pod p) {
    V1Affinity a = affinity(p);
    if (a.getNodeAffinity() == null) {
      a.setNodeAffinity(new V1NodeAffinity());
    }
    return a.getNodeAffinity();
  }

  private static V1PodAffinity podAffinity(V1Pod p) {
    V1Affinity a = affinity(p);
    if (a.getPodAffinity() == null) {
      a.setPodAffinity(new V1PodAffinity());
    }
    return a.getPodAffinity();
  }

  private static V1PodAntiAffinity podAntiAffinity(V1Pod p) {
    V1Affinity a = affinity(p);
    if (a.getPodAntiAffinity() == null) {
      a.setPodAntiAffinity(new V1PodAntiAffinity());
    }
    return a.getPodAntiAffinity();
  }

  private static V1PodAffinityTerm podAffinityTerm(
      String topologyKey, String labelKey, String op, String... values) {
    V1LabelSelectorRequirement req = new V1LabelSelectorRequirement().key(labelKey).operator(op);
    if (values.length > 0) {
      req.setValues(new ArrayList<>(List.of(values)));
    }
    return new V1PodAffinityTerm()
        .topologyKey(topologyKey)
        .labelSelector(new V1LabelSelector().addMatchExpressionsItem(req));
  }

  /**
   * The builder of one topology spread constraint, used through {@link
   * MakePod#spreadConstraint(Consumer)}. Defaults: {@code maxSkew 1}, {@code whenUnsatisfiable
   * DoNotSchedule}, no label selector, no minDomains, policies unset.
   */
  public static final class Spread {
    private int maxSkew = 1;
    private String topologyKey;
    private String whenUnsatisfiable = "DoNotSchedule";
    private V1LabelSelector selector;
    private Integer minDomains;
    private String nodeAffinityPolicy;
    private String nodeTaintsPolicy;
    private List<String> matchLabelKeys;

    Spread() {}

    /** Sets {@code maxSkew}. */
    public Spread maxSkew(int maxSkew) {
      this.maxSkew = maxSkew;
      return this;
    }

    /** Sets {@code topologyKey} (required). */
    public Spread topologyKey(String topologyKey) {
      this.topologyKey = topologyKey;
      return this;
    }

    /** Sets {@code whenUnsatisfiable}: {@code DoNotSchedule} or {@code ScheduleAnyway}. */
    public Spread whenUnsatisfiable(String whenUnsatisfiable) {
      this.whenUnsatisfiable = whenUnsatisfiable;
      return this;
    }

    /** Replaces the label selector. */
    public Spread selector(V1LabelSelector selector) {
      this.selector = selector;
      return this;
    }

    /** Adds the requirement {@code key Exists} to the label selector. */
    public Spread selectorExists(String key) {
      return expression(new V1LabelSelectorRequirement().key(key).operator("Exists"));
    }

    /** Adds the requirement {@code key In values} to the label selector. */
    public Spread selectorIn(String key, String... values) {
      return expression(
          new V1LabelSelectorRequirement()
              .key(key)
              .operator("In")
              .values(new ArrayList<>(List.of(values))));
    }

    /** Adds the requirement {@code key NotIn values} to the label selector. */
    public Spread selectorNotIn(String key, String... values) {
      return expression(
          new V1LabelSelectorRequirement()
              .key(key)
              .operator("NotIn")
              .values(new ArrayList<>(List.of(values))));
    }

    private Spread expression(V1LabelSelectorRequirement r) {
      if (selector == null) {
        selector = new V1LabelSelector();
      }
      selector.addMatchExpressionsItem(r);
      return this;
    }

    /** Sets {@code minDomains}; {@code null} leaves it unset. */
    public Spread minDomains(Integer minDomains) {
      this.minDomains = minDomains;
      return this;
    }

    /** Sets {@code nodeAffinityPolicy}: {@code Honor} or {@code Ignore}. */
    public Spread nodeAffinityPolicy(String policy) {
      this.nodeAffinityPolicy = policy;
      return this;
    }

    /** Sets {@code nodeTaintsPolicy}: {@code Honor} or {@code Ignore}. */
    public Spread nodeTaintsPolicy(String policy) {
      this.nodeTaintsPolicy = policy;
      return this;
    }

    /** Sets {@code matchLabelKeys}. */
    public Spread matchLabelKeys(String... keys) {
      this.matchLabelKeys = new ArrayList<>(List.of(keys));
      return this;
    }

    V1TopologySpreadConstraint build() {
      if (topologyKey == null || topologyKey.isEmpty()) {
        throw new IllegalArgumentException("spreadConstraint(): topologyKey must be set");
      }
      V1TopologySpreadConstraint c =
          new V1TopologySpreadConstraint()
              .maxSkew(maxSkew)
              .topologyKey(topologyKey)
              .whenUnsatisfiable(whenUnsatisfiable)
              .labelSelector(selector)
              .minDomains(minDomains)
              .nodeAffinityPolicy(nodeAffinityPolicy)
              .nodeTaintsPolicy(nodeTaintsPolicy);
      if (matchLabelKeys != null) {
        c.setMatchLabelKeys(matchLabelKeys);
      }
      return c;
    }
  }
}
