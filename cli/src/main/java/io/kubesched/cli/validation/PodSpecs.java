package io.kubesched.cli.validation;

import static io.kubesched.cli.validation.Selectors.nullToEmpty;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1EphemeralContainer;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1PodAffinityTerm;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PreferredSchedulingTerm;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubernetes.client.openapi.models.V1TopologySpreadConstraint;
import io.kubernetes.client.openapi.models.V1WeightedPodAffinityTerm;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's {@code ValidatePodSpec}, for the fields the scheduler reads: containers (names,
 * resources, ports), overhead, node name and selector, scheduler name, tolerations, affinity,
 * topology spread constraints, preemption policy, restart and DNS policies, host networking's
 * ports, volumes and their mounts, and scheduling gates.
 *
 * <p>Every container needs an image, as for the API server ({@code spec.containers[0].image:
 * Required value}).
 */
final class PodSpecs {
  private static final List<String> EFFECTS =
      List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
  private static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");

  private PodSpecs() {}

  /** Validates {@code spec} at {@code path} ({@code spec} or {@code spec.template.spec}). */
  static void validate(V1PodSpec spec, String path, List<FieldError> out) {
    if (spec == null) {
      out.add(FieldErrors.required(FieldErrors.child(path, "containers"), ""));
      return;
    }
    Set<String> names = new HashSet<>();
    Set<String> hostPorts = new HashSet<>();
    List<V1Container> containers = spec.getContainers();
    String cPath = FieldErrors.child(path, "containers");
    if (containers == null || containers.isEmpty()) {
      out.add(FieldErrors.required(cPath, ""));
    } else {
      containers(containers, cPath, names, hostPorts, out);
    }
    if (spec.getInitContainers() != null) {
      containers(
          spec.getInitContainers(),
          FieldErrors.child(path, "initContainers"),
          names,
          hostPorts,
          out);
    }
    if (spec.getEphemeralContainers() != null) {
      ephemeralContainers(
          spec.getEphemeralContainers(),
          FieldErrors.child(path, "ephemeralContainers"),
          names,
          out);
    }
    Resources.overhead(spec.getOverhead(), FieldErrors.child(path, "overhead"), out);
    if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
      Names.invalid(
          FieldErrors.child(path, "nodeName"),
          spec.getNodeName(),
          Names.dns1123Subdomain(spec.getNodeName()),
          out);
    }
    Names.labels(spec.getNodeSelector(), FieldErrors.child(path, "nodeSelector"), out);
    if (spec.getSchedulerName() != null && !spec.getSchedulerName().isEmpty()) {
      Names.invalid(
          FieldErrors.child(path, "schedulerName"),
          spec.getSchedulerName(),
          Names.dns1123Subdomain(spec.getSchedulerName()),
          out);
    }
    if (spec.getPriorityClassName() != null && !spec.getPriorityClassName().isEmpty()) {
      Names.invalid(
          FieldErrors.child(path, "priorityClassName"),
          spec.getPriorityClassName(),
          Names.dns1123Subdomain(spec.getPriorityClassName()),
          out);
    }
    if (spec.getPreemptionPolicy() != null
        && !List.of("Never", "PreemptLowerPriority").contains(spec.getPreemptionPolicy())) {
      out.add(
          FieldErrors.notSupported(
              FieldErrors.child(path, "preemptionPolicy"),
              spec.getPreemptionPolicy(),
              "Never",
              "PreemptLowerPriority"));
    }
    enumValue(
        spec.getRestartPolicy(), FieldErrors.child(path, "restartPolicy"), RESTART_POLICIES, out);
    enumValue(spec.getDnsPolicy(), FieldErrors.child(path, "dnsPolicy"), DNS_POLICIES, out);
    if ("None".equals(spec.getDnsPolicy()) && spec.getDnsConfig() == null) {
      out.add(
          FieldErrors.required(
              FieldErrors.child(path, "dnsConfig"),
              "must provide `dnsConfig` when `dnsPolicy` is None"));
    }
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      hostNetworkPorts(spec.getContainers(), FieldErrors.child(path, "containers"), out);
      hostNetworkPorts(spec.getInitContainers(), FieldErrors.child(path, "initContainers"), out);
    }
    Set<String> volumes =
        PodVolumes.validate(spec.getVolumes(), FieldErrors.child(path, "volumes"), out);
    volumeMounts(spec.getContainers(), FieldErrors.child(path, "containers"), volumes, out);
    volumeMounts(spec.getInitContainers(), FieldErrors.child(path, "initContainers"), volumes, out);
    schedulingGates(spec.getSchedulingGates(), FieldErrors.child(path, "schedulingGates"), out);
    tolerations(spec.getTolerations(), FieldErrors.child(path, "tolerations"), out);
    affinity(spec.getAffinity(), FieldErrors.child(path, "affinity"), out);
    topologySpread(
        spec.getTopologySpreadConstraints(),
        FieldErrors.child(path, "topologySpreadConstraints"),
        out);
  }

  private static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
  private static final List<String> DNS_POLICIES =
      List.of("ClusterFirstWithHostNet", "ClusterFirst", "Default", "None");
  private static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");

  /** An enumerated field: absent or empty is defaulted by the API server, anything else listed. */
  private static void enumValue(
      String value, String path, List<String> valid, List<FieldError> out) {
    if (value != null && !value.isEmpty() && !valid.contains(value)) {
      out.add(FieldErrors.notSupported(path, value, valid));
    }
  }

  /** {@code validateHostNetwork}: with host networking, each port's host port is its port. */
  private static void hostNetworkPorts(
      List<V1Container> containers, String path, List<FieldError> out) {
    if (containers == null) {
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      List<V1ContainerPort> ports = containers.get(i).getPorts();
      for (int j = 0; ports != null && j < ports.size(); j++) {
        V1ContainerPort port = ports.get(j);
        int cp = port.getContainerPort() == null ? 0 : port.getContainerPort();
        // the API server defaults an unset host port to the container port first
        int hp = port.getHostPort() == null || port.getHostPort() == 0 ? cp : port.getHostPort();
        if (hp != cp) {
          out.add(
              FieldErrors.invalid(
                  FieldErrors.child(
                      FieldErrors.index(FieldErrors.child(FieldErrors.index(path, i), "ports"), j),
                      "containerPort"),
                  cp,
                  "must match `hostPort` when `hostNetwork` is true"));
        }
      }
    }
  }

  /** {@code ValidateVolumeMounts}: each mount names a volume of the pod and has a path. */
  private static void volumeMounts(
      List<V1Container> containers, String path, Set<String> volumes, List<FieldError> out) {
    if (containers == null) {
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      var mounts = containers.get(i).getVolumeMounts();
      for (int j = 0; mounts != null && j < mounts.size(); j++) {
        var m = mounts.get(j);
        String p =
            FieldErrors.index(FieldErrors.child(FieldErrors.index(path, i), "volumeMounts"), j);
        String name = nullToEmpty(m.getName());
        if (name.isEmpty()) {
          out.add(FieldErrors.required(FieldErrors.child(p, "name"), ""));
        }
        if (!volumes.contains(name)) {
          out.add(
              new FieldError(
                  FieldErrors.child(p, "name"), "Not found: " + FieldErrors.quote(name)));
        }
        if (nullToEmpty(m.getMountPath()).isEmpty()) {
          out.add(FieldErrors.required(FieldErrors.child(p, "mountPath"), ""));
        }
      }
    }
  }

  /** {@code validateSchedulingGates}: qualified names, no duplicates. */
  private static void schedulingGates(
      List<V1PodSchedulingGate> gates, String path, List<FieldError> out) {
    if (gates == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < gates.size(); i++) {
      String p = FieldErrors.child(FieldErrors.index(path, i), "name");
      String name = nullToEmpty(gates.get(i).getName());
      Names.invalid(p, name, QualifiedNames.isQualifiedName(name), out);
      if (!seen.add(name)) {
        out.add(FieldErrors.duplicate(p, name));
      }
    }
  }

  private static void containers(
      List<V1Container> containers,
      String path,
      Set<String> names,
      Set<String> hostPorts,
      List<FieldError> out) {
    for (int i = 0; i < containers.size(); i++) {
      V1Container c = containers.get(i);
      String p = FieldErrors.index(path, i);
      String namePath = FieldErrors.child(p, "name");
      String name = nullToEmpty(c.getName());
      nameAndImage(name, c.getImage(), p, out);
      ports(c.getPorts(), FieldErrors.child(p, "ports"), out);
      if (c.getResources() != null) {
        Resources.requirements(
            c.getResources().getRequests(),
            c.getResources().getLimits(),
            FieldErrors.child(p, "resources"),
            out);
      }
      enumValue(
          c.getImagePullPolicy(), FieldErrors.child(p, "imagePullPolicy"), PULL_POLICIES, out);
      if (!name.isEmpty() && !names.add(name)) {
        out.add(FieldErrors.duplicate(namePath, name));
      }
    }
    // kube checks host port conflicts across the list once every container is validated.
    for (int i = 0; i < containers.size(); i++) {
      List<V1ContainerPort> ports = containers.get(i).getPorts();
      if (ports == null) {
        continue;
      }
      String pp = FieldErrors.child(FieldErrors.index(path, i), "ports");
      for (int j = 0; j < ports.size(); j++) {
        Integer hp = ports.get(j).getHostPort();
        String protocol = ports.get(j).getProtocol() == null ? "TCP" : ports.get(j).getProtocol();
        if (hp != null && hp != 0 && !hostPorts.add(hp + "/" + protocol)) {
          out.add(
              FieldErrors.duplicate(
                  FieldErrors.child(FieldErrors.index(pp, j), "hostPort"), hp + "/" + protocol));
        }
      }
    }
  }

  /**
   * The start of kube's {@code validateContainerCommon}, shared by containers, init containers and
   * ephemeral containers: the name is required and a DNS-1123 label, the image is required.
   */
  private static void nameAndImage(String name, String image, String path, List<FieldError> out) {
    String namePath = FieldErrors.child(path, "name");
    if (name.isEmpty()) {
      out.add(FieldErrors.required(namePath, ""));
    } else {
      Names.invalid(namePath, name, Names.dns1123Label(name), out);
    }
    if (nullToEmpty(image).isEmpty()) {
      out.add(FieldErrors.required(FieldErrors.child(path, "image"), ""));
    }
  }

  /**
   * kube's {@code validateEphemeralContainers}, for the fields the simulator reads: each one's name
   * (required, a DNS-1123 label, unique among all the pod's containers) and image. kube refuses
   * ephemeral containers on create (they are added through a subresource); the simulator accepts
   * them, since a dump of a running cluster holds them.
   */
  private static void ephemeralContainers(
      List<V1EphemeralContainer> containers, String path, Set<String> names, List<FieldError> out) {
    for (int i = 0; i < containers.size(); i++) {
      V1EphemeralContainer c = containers.get(i);
      String p = FieldErrors.index(path, i);
      String name = nullToEmpty(c.getName());
      nameAndImage(name, c.getImage(), p, out);
      if (!name.isEmpty() && !names.add(name)) {
        out.add(FieldErrors.duplicate(FieldErrors.child(p, "name"), name));
      }
    }
  }

  /**
   * kube's {@code validateContainersOnlyForPod}: what a pod's containers must satisfy beyond a pod
   * template's (kube keeps templates lenient for compatibility): an image without leading or
   * trailing whitespace.
   */
  static void podOnly(V1PodSpec spec, String path, List<FieldError> out) {
    if (spec == null) {
      return;
    }
    imageWhitespace(spec.getContainers(), FieldErrors.child(path, "containers"), out);
    imageWhitespace(spec.getInitContainers(), FieldErrors.child(path, "initContainers"), out);
  }

  private static void imageWhitespace(
      List<V1Container> containers, String path, List<FieldError> out) {
    if (containers == null) {
      return;
    }
    for (int i = 0; i < containers.size(); i++) {
      String image = containers.get(i).getImage();
      if (image != null
          && !image.isEmpty()
          && (isGoSpace(image.codePointAt(0))
              || isGoSpace(image.codePointBefore(image.length())))) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(FieldErrors.index(path, i), "image"),
                image,
                "must not have leading or trailing whitespace"));
      }
    }
  }

  private static void ports(List<V1ContainerPort> ports, String path, List<FieldError> out) {
    if (ports == null) {
      return;
    }
    for (int i = 0; i < ports.size(); i++) {
      V1ContainerPort port = ports.get(i);
      String p = FieldErrors.index(path, i);
      Integer cp = port.getContainerPort();
      if (cp == null || cp < 1 || cp > 65535) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(p, "containerPort"),
                cp == null ? 0 : cp,
                "must be between 1 and 65535, inclusive"));
      }
      Integer hp = port.getHostPort();
      if (hp != null && hp != 0 && (hp < 1 || hp > 65535)) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(p, "hostPort"), hp, "must be between 1 and 65535, inclusive"));
      }
      String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
      if (!PROTOCOLS.contains(protocol)) {
        out.add(FieldErrors.notSupported(FieldErrors.child(p, "protocol"), protocol, PROTOCOLS));
      }
    }
  }

  /** Go's {@code unicode.IsSpace}, which {@code strings.TrimSpace} trims. */
  private static boolean isGoSpace(int c) {
    return switch (c) {
      case '\t', '\n', 0x0B, '\f', '\r', ' ', 0x85, 0xA0 -> true;
      default -> {
        int type = Character.getType(c);
        yield c > 0xFF
            && (type == Character.SPACE_SEPARATOR
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR);
      }
    };
  }

  /** {@code ValidateTolerations}. */
  static void tolerations(List<V1Toleration> tolerations, String path, List<FieldError> out) {
    if (tolerations == null) {
      return;
    }
    for (int i = 0; i < tolerations.size(); i++) {
      V1Toleration t = tolerations.get(i);
      String p = FieldErrors.index(path, i);
      String key = nullToEmpty(t.getKey());
      String op = nullToEmpty(t.getOperator());
      String effect = nullToEmpty(t.getEffect());
      if (!key.isEmpty()) {
        Names.labelName(key, FieldErrors.child(p, "key"), out);
      }
      if (key.isEmpty() && !op.equals("Exists")) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(p, "operator"),
                op,
                "operator must be Exists when `key` is empty, which means \"match all values and"
                    + " all keys\""));
      }
      if (t.getTolerationSeconds() != null && !effect.equals("NoExecute")) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(p, "effect"),
                effect,
                "effect must be 'NoExecute' when `tolerationSeconds` is set"));
      }
      switch (op) {
        case "", "Equal" ->
            Names.invalid(
                FieldErrors.child(p, "operator"),
                nullToEmpty(t.getValue()),
                Names.labelValue(nullToEmpty(t.getValue())),
                out);
        case "Exists" -> {
          if (!nullToEmpty(t.getValue()).isEmpty()) {
            out.add(
                FieldErrors.invalid(
                    FieldErrors.child(p, "operator"),
                    op,
                    "value must be empty when `operator` is 'Exists'"));
          }
        }
        default ->
            out.add(
                FieldErrors.notSupported(FieldErrors.child(p, "operator"), op, "Equal", "Exists"));
      }
      if (!effect.isEmpty() && !EFFECTS.contains(effect)) {
        out.add(FieldErrors.notSupported(FieldErrors.child(p, "effect"), effect, EFFECTS));
      }
    }
  }

  private static void affinity(V1Affinity a, String path, List<FieldError> out) {
    if (a == null) {
      return;
    }
    V1NodeAffinity na = a.getNodeAffinity();
    if (na != null) {
      String p = FieldErrors.child(path, "nodeAffinity");
      if (na.getRequiredDuringSchedulingIgnoredDuringExecution() != null) {
        Selectors.nodeSelector(
            na.getRequiredDuringSchedulingIgnoredDuringExecution(),
            FieldErrors.child(p, "requiredDuringSchedulingIgnoredDuringExecution"),
            out);
      }
      List<V1PreferredSchedulingTerm> pref =
          na.getPreferredDuringSchedulingIgnoredDuringExecution();
      if (pref != null) {
        String pp = FieldErrors.child(p, "preferredDuringSchedulingIgnoredDuringExecution");
        for (int i = 0; i < pref.size(); i++) {
          String tp = FieldErrors.index(pp, i);
          weight(pref.get(i).getWeight(), FieldErrors.child(tp, "weight"), out);
          Selectors.nodeSelectorTerm(
              pref.get(i).getPreference(), FieldErrors.child(tp, "preference"), out);
        }
      }
    }
    if (a.getPodAffinity() != null) {
      podAffinity(
          a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
          a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
          FieldErrors.child(path, "podAffinity"),
          out);
    }
    if (a.getPodAntiAffinity() != null) {
      podAffinity(
          a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(),
          a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
          FieldErrors.child(path, "podAntiAffinity"),
          out);
    }
  }

  private static void podAffinity(
      List<V1PodAffinityTerm> required,
      List<V1WeightedPodAffinityTerm> preferred,
      String path,
      List<FieldError> out) {
    if (required != null) {
      String rp = FieldErrors.child(path, "requiredDuringSchedulingIgnoredDuringExecution");
      for (int i = 0; i < required.size(); i++) {
        podAffinityTerm(required.get(i), FieldErrors.index(rp, i), out);
      }
    }
    if (preferred != null) {
      String pp = FieldErrors.child(path, "preferredDuringSchedulingIgnoredDuringExecution");
      for (int i = 0; i < preferred.size(); i++) {
        String tp = FieldErrors.index(pp, i);
        weight(preferred.get(i).getWeight(), FieldErrors.child(tp, "weight"), out);
        if (preferred.get(i).getPodAffinityTerm() != null) {
          podAffinityTerm(
              preferred.get(i).getPodAffinityTerm(), FieldErrors.child(tp, "podAffinityTerm"), out);
        }
      }
    }
  }

  private static void podAffinityTerm(V1PodAffinityTerm t, String path, List<FieldError> out) {
    Selectors.labelSelector(t.getLabelSelector(), FieldErrors.child(path, "labelSelector"), out);
    Selectors.labelSelector(
        t.getNamespaceSelector(), FieldErrors.child(path, "namespaceSelector"), out);
    if (t.getNamespaces() != null) {
      for (String ns : t.getNamespaces()) {
        Names.invalid(
            FieldErrors.child(path, "namespace"), ns, Names.dns1123Label(nullToEmpty(ns)), out);
      }
    }
    String key = nullToEmpty(t.getTopologyKey());
    String keyPath = FieldErrors.child(path, "topologyKey");
    if (key.isEmpty()) {
      out.add(FieldErrors.required(keyPath, "can not be empty"));
    } else {
      Names.labelName(key, keyPath, out);
    }
  }

  private static void weight(Integer w, String path, List<FieldError> out) {
    if (w == null || w < 1 || w > 100) {
      out.add(FieldErrors.invalid(path, w == null ? 0 : w, "must be in the range 1-100"));
    }
  }

  private static void topologySpread(
      List<V1TopologySpreadConstraint> constraints, String path, List<FieldError> out) {
    if (constraints == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < constraints.size(); i++) {
      V1TopologySpreadConstraint c = constraints.get(i);
      String p = FieldErrors.index(path, i);
      int skew = c.getMaxSkew() == null ? 0 : c.getMaxSkew();
      if (skew <= 0) {
        out.add(
            FieldErrors.invalid(
                FieldErrors.child(p, "maxSkew"), skew, "must be greater than zero"));
      }
      String key = nullToEmpty(c.getTopologyKey());
      String keyPath = FieldErrors.child(p, "topologyKey");
      if (key.isEmpty()) {
        out.add(FieldErrors.required(keyPath, "can not be empty"));
      } else {
        Names.labelName(key, keyPath, out);
      }
      String when = nullToEmpty(c.getWhenUnsatisfiable());
      String whenPath = FieldErrors.child(p, "whenUnsatisfiable");
      if (!when.equals("DoNotSchedule") && !when.equals("ScheduleAnyway")) {
        out.add(FieldErrors.notSupported(whenPath, when, "DoNotSchedule", "ScheduleAnyway"));
      }
      Integer minDomains = c.getMinDomains();
      if (minDomains != null) {
        String mp = FieldErrors.child(p, "minDomains");
        if (minDomains <= 0) {
          out.add(FieldErrors.invalid(mp, minDomains, "must be greater than 0"));
        }
        if (!when.equals("DoNotSchedule")) {
          out.add(
              FieldErrors.invalid(
                  mp,
                  minDomains,
                  "can only use minDomains if whenUnsatisfiable=DoNotSchedule, not " + when));
        }
      }
      String pair = "{" + key + ", " + when + "}";
      if (!key.isEmpty() && !when.isEmpty() && !seen.add(pair)) {
        out.add(FieldErrors.duplicate(p, new FieldErrors.Raw(pair)));
      }
      policy(c.getNodeAffinityPolicy(), FieldErrors.child(p, "nodeAffinityPolicy"), out);
      policy(c.getNodeTaintsPolicy(), FieldErrors.child(p, "nodeTaintsPolicy"), out);
      Selectors.labelSelector(c.getLabelSelector(), FieldErrors.child(p, "labelSelector"), out);
      if (c.getMatchLabelKeys() != null) {
        for (int j = 0; j < c.getMatchLabelKeys().size(); j++) {
          Names.labelName(
              nullToEmpty(c.getMatchLabelKeys().get(j)),
              FieldErrors.index(FieldErrors.child(p, "matchLabelKeys"), j),
              out);
        }
      }
    }
  }

  private static void policy(String value, String path, List<FieldError> out) {
    if (value != null && !value.equals("Honor") && !value.equals("Ignore")) {
      out.add(FieldErrors.notSupported(path, value, "Honor", "Ignore"));
    }
  }

  /** {@code validateNodeTaints}: the taints of a node. */
  static void taints(
      List<io.kubernetes.client.openapi.models.V1Taint> taints, String path, List<FieldError> out) {
    if (taints == null) {
      return;
    }
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < taints.size(); i++) {
      var t = taints.get(i);
      String p = FieldErrors.index(path, i);
      Names.labelName(nullToEmpty(t.getKey()), FieldErrors.child(p, "key"), out);
      if (t.getValue() != null) {
        Names.invalid(
            FieldErrors.child(p, "value"), t.getValue(), Names.labelValue(t.getValue()), out);
      }
      String effect = nullToEmpty(t.getEffect());
      if (effect.isEmpty()) {
        out.add(FieldErrors.required(FieldErrors.child(p, "effect"), ""));
      } else if (!EFFECTS.contains(effect)) {
        out.add(FieldErrors.notSupported(FieldErrors.child(p, "effect"), effect, EFFECTS));
      }
      String k = t.getKey() + ":" + effect;
      if (!seen.add(k)) {
        out.add(
            new FieldError(
                p,
                "Duplicate value: "
                    + FieldErrors.quote(k)
                    + ": taints must be unique by key and effect pair"));
      }
    }
  }
}
