package io.kubesched.cli.validation;

import static io.kubesched.cli.validation.Selectors.nullToEmpty;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1RuntimeClass;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * kube-apiserver's create validation ({@code pkg/apis/*}/validation) of the kinds the simulator
 * reads: Pods, Nodes, Namespaces, PriorityClasses, PodDisruptionBudgets, Services, RuntimeClasses
 * and the workloads (Deployments, ReplicaSets, ReplicationControllers, StatefulSets, Jobs,
 * DaemonSets) with their pod templates.
 */
final class CoreValidators {
  /** kube's {@code HighestUserDefinablePriority}. */
  static final int HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;

  private static final Map<String, Integer> SYSTEM_CLASSES =
      Map.of("system-node-critical", 2_000_001_000, "system-cluster-critical", 2_000_000_000);
  private static final Pattern PERCENT = Pattern.compile("^[0-9]+%$");

  private CoreValidators() {}

  static void registerAll(Validators v) {
    v.register(
        V1Pod.class,
        p -> {
          List<FieldError> out = new ArrayList<>();
          meta(p.getMetadata(), true, Names::dns1123Subdomain, out);
          PodSpecs.validate(p.getSpec(), "spec", out);
          PodSpecs.podOnly(p.getSpec(), "spec", out);
          return out;
        });
    v.register(V1Node.class, CoreValidators::node);
    v.register(
        V1Namespace.class,
        n -> {
          List<FieldError> out = new ArrayList<>();
          meta(n.getMetadata(), false, Names::dns1123Label, out);
          return out;
        });
    v.register(
        V1Service.class,
        s -> {
          List<FieldError> out = new ArrayList<>();
          meta(s.getMetadata(), true, Names::dns1035Label, out);
          if (s.getSpec() != null) {
            Names.labels(s.getSpec().getSelector(), "spec.selector", out);
          }
          return out;
        });
    v.register(V1PriorityClass.class, CoreValidators::priorityClass);
    v.register(V1PodDisruptionBudget.class, CoreValidators::pdb);
    v.register(V1RuntimeClass.class, CoreValidators::runtimeClass);
    v.register(
        V1Deployment.class,
        d ->
            workload(
                d.getMetadata(),
                d.getSpec() == null ? null : d.getSpec().getReplicas(),
                d.getSpec() == null ? null : d.getSpec().getSelector(),
                d.getSpec() == null ? null : d.getSpec().getTemplate(),
                true));
    v.register(
        V1ReplicaSet.class,
        d ->
            workload(
                d.getMetadata(),
                d.getSpec() == null ? null : d.getSpec().getReplicas(),
                d.getSpec() == null ? null : d.getSpec().getSelector(),
                d.getSpec() == null ? null : d.getSpec().getTemplate(),
                true));
    v.register(
        V1StatefulSet.class,
        d ->
            workload(
                d.getMetadata(),
                d.getSpec() == null ? null : d.getSpec().getReplicas(),
                d.getSpec() == null ? null : d.getSpec().getSelector(),
                d.getSpec() == null ? null : d.getSpec().getTemplate(),
                false));
    v.register(
        V1DaemonSet.class,
        d ->
            workload(
                d.getMetadata(),
                null,
                d.getSpec() == null ? null : d.getSpec().getSelector(),
                d.getSpec() == null ? null : d.getSpec().getTemplate(),
                false));
    v.register(V1ReplicationController.class, CoreValidators::replicationController);
    v.register(V1Job.class, CoreValidators::job);
  }

  /** {@code ValidateObjectMeta}: name, namespace, labels. */
  static void meta(
      V1ObjectMeta m,
      boolean namespaced,
      Function<String, List<String>> nameCheck,
      List<FieldError> out) {
    if (m == null || m.getName() == null || m.getName().isEmpty()) {
      out.add(FieldErrors.required("metadata.name", "name or generateName is required"));
    } else {
      Names.invalid("metadata.name", m.getName(), nameCheck.apply(m.getName()), out);
    }
    if (m == null) {
      return;
    }
    if (namespaced && m.getNamespace() != null && !m.getNamespace().isEmpty()) {
      Names.invalid(
          "metadata.namespace", m.getNamespace(), Names.dns1123Label(m.getNamespace()), out);
    }
    Names.labels(m.getLabels(), "metadata.labels", out);
    annotations(m.getAnnotations(), "metadata.annotations", out);
  }

  /** kube's {@code ValidateAnnotations} limit on the annotations' total size. */
  static final long TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * 1024;

  /**
   * {@code ValidateAnnotations}: every key a qualified name (checked lower-cased, as kube does),
   * and keys plus values at most 256 KiB in all.
   */
  static void annotations(Map<String, String> annotations, String path, List<FieldError> out) {
    if (annotations == null) {
      return;
    }
    long total = 0;
    for (Map.Entry<String, String> e : new TreeMap<>(annotations).entrySet()) {
      String k = e.getKey();
      for (String msg : QualifiedNames.isQualifiedName(k.toLowerCase(java.util.Locale.ROOT))) {
        out.add(FieldErrors.invalid(path, k, msg));
      }
      total += k.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
      total +=
          e.getValue() == null
              ? 0
              : e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }
    if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
      out.add(
          new FieldError(
              path,
              "Too long: may not be more than " + TOTAL_ANNOTATION_SIZE_LIMIT_BYTES + " bytes"));
    }
  }

  private static List<FieldError> node(V1Node n) {
    List<FieldError> out = new ArrayList<>();
    meta(n.getMetadata(), false, Names::dns1123Subdomain, out);
    if (n.getSpec() != null) {
      PodSpecs.taints(n.getSpec().getTaints(), "spec.taints", out);
    }
    if (n.getStatus() != null) {
      Resources.nodeResources(n.getStatus().getCapacity(), "status.capacity", out);
      Resources.nodeResources(n.getStatus().getAllocatable(), "status.allocatable", out);
    }
    return out;
  }

  private static List<FieldError> priorityClass(V1PriorityClass pc) {
    List<FieldError> out = new ArrayList<>();
    meta(pc.getMetadata(), false, Names::dns1123Subdomain, out);
    String name = pc.getMetadata() == null ? "" : nullToEmpty(pc.getMetadata().getName());
    int value = pc.getValue() == null ? 0 : pc.getValue();
    if (name.startsWith("system-")) {
      String problem = null;
      Integer known = SYSTEM_CLASSES.get(name);
      if (known == null) {
        problem = name + " is not a known system priority class";
      } else if (known != value) {
        problem = "value of " + name + " PriorityClass must be " + known;
      } else if (Boolean.TRUE.equals(pc.getGlobalDefault())) {
        problem = "globalDefault of " + name + " PriorityClass must be false";
      }
      if (problem != null) {
        out.add(
            FieldErrors.forbidden(
                "metadata.name",
                "priority class names with 'system-' prefix are reserved for system use only."
                    + " error: "
                    + problem));
      }
    } else if (value > HIGHEST_USER_DEFINABLE_PRIORITY) {
      out.add(
          FieldErrors.forbidden(
              "value",
              "maximum allowed value of a user defined priority is "
                  + HIGHEST_USER_DEFINABLE_PRIORITY));
    }
    if (pc.getPreemptionPolicy() != null
        && !List.of("Never", "PreemptLowerPriority").contains(pc.getPreemptionPolicy())) {
      out.add(
          FieldErrors.notSupported(
              "preemptionPolicy", pc.getPreemptionPolicy(), "Never", "PreemptLowerPriority"));
    }
    return out;
  }

  private static List<FieldError> pdb(V1PodDisruptionBudget pdb) {
    List<FieldError> out = new ArrayList<>();
    meta(pdb.getMetadata(), true, Names::dns1123Subdomain, out);
    var spec = pdb.getSpec();
    if (spec == null) {
      return out;
    }
    if (spec.getMinAvailable() != null && spec.getMaxUnavailable() != null) {
      out.add(
          FieldErrors.invalid(
              "spec",
              new FieldErrors.Raw("{minAvailable, maxUnavailable}"),
              "minAvailable and maxUnavailable cannot be both set"));
    }
    intOrPercent(spec.getMinAvailable(), "spec.minAvailable", out);
    intOrPercent(spec.getMaxUnavailable(), "spec.maxUnavailable", out);
    Selectors.labelSelector(spec.getSelector(), "spec.selector", out);
    String policy = spec.getUnhealthyPodEvictionPolicy();
    if (policy != null && !policy.equals("IfHealthyBudget") && !policy.equals("AlwaysAllow")) {
      out.add(
          FieldErrors.notSupported(
              "spec.unhealthyPodEvictionPolicy", policy, "AlwaysAllow", "IfHealthyBudget"));
    }
    return out;
  }

  /** {@code ValidatePositiveIntOrPercent} and {@code IsNotMoreThan100Percent}. */
  private static void intOrPercent(IntOrString v, String path, List<FieldError> out) {
    if (v == null) {
      return;
    }
    if (v.isInteger()) {
      if (v.getIntValue() < 0) {
        out.add(FieldErrors.invalid(path, v.getIntValue(), "must be greater than or equal to 0"));
      }
      return;
    }
    String s = v.getStrValue();
    if (!PERCENT.matcher(s).matches()) {
      out.add(
          FieldErrors.invalid(
              path,
              s,
              Names.regexError(
                  "a valid percent string must be a numeric string followed by an ending '%'",
                  "[0-9]+%", "1%", "93%")));
      return;
    }
    String digits = s.substring(0, s.length() - 1);
    if (digits.length() > 3 || Integer.parseInt(digits) > 100) {
      out.add(FieldErrors.invalid(path, s, "must not be greater than 100%"));
    }
  }

  private static List<FieldError> runtimeClass(V1RuntimeClass rc) {
    List<FieldError> out = new ArrayList<>();
    meta(rc.getMetadata(), false, Names::dns1123Subdomain, out);
    String handler = nullToEmpty(rc.getHandler());
    Names.invalid("handler", handler, Names.dns1123Label(handler), out);
    if (rc.getOverhead() != null) {
      Resources.overhead(rc.getOverhead().getPodFixed(), "overhead.podFixed", out);
    }
    if (rc.getScheduling() != null) {
      Names.labels(rc.getScheduling().getNodeSelector(), "scheduling.nodeSelector", out);
      PodSpecs.tolerations(rc.getScheduling().getTolerations(), "scheduling.tolerations", out);
    }
    return out;
  }

  private static List<FieldError> workload(
      V1ObjectMeta m,
      Integer replicas,
      V1LabelSelector selector,
      V1PodTemplateSpec template,
      boolean rejectEmptySelector) {
    List<FieldError> out = new ArrayList<>();
    meta(m, true, Names::dns1123Subdomain, out);
    nonNegative(replicas, "spec.replicas", out);
    if (selector == null) {
      out.add(FieldErrors.required("spec.selector", ""));
    } else {
      int before = out.size();
      Selectors.labelSelector(selector, "spec.selector", out);
      if (out.size() == before) {
        LabelSelector compiled = LabelSelector.compile(selector);
        if (compiled.isEverything() && rejectEmptySelector) {
          out.add(
              FieldErrors.invalid(
                  "spec.selector",
                  new FieldErrors.Raw("{}"),
                  "empty selector is invalid for deployment"));
        } else if (template != null) {
          Map<String, String> labels =
              template.getMetadata() == null || template.getMetadata().getLabels() == null
                  ? Map.of()
                  : template.getMetadata().getLabels();
          if (!compiled.matches(labels)) {
            out.add(
                FieldErrors.invalid(
                    "spec.template.metadata.labels",
                    goMap(labels),
                    "`selector` does not match template `labels`"));
          }
        }
      }
    }
    template(template, List.of("Always"), out);
    return out;
  }

  private static List<FieldError> replicationController(V1ReplicationController rc) {
    List<FieldError> out = new ArrayList<>();
    meta(rc.getMetadata(), true, Names::dns1123Subdomain, out);
    if (rc.getSpec() != null) {
      nonNegative(rc.getSpec().getReplicas(), "spec.replicas", out);
      template(rc.getSpec().getTemplate(), List.of("Always"), out);
    }
    return out;
  }

  private static List<FieldError> job(V1Job j) {
    List<FieldError> out = new ArrayList<>();
    meta(j.getMetadata(), true, Names::dns1123Subdomain, out);
    if (j.getSpec() != null) {
      nonNegative(j.getSpec().getParallelism(), "spec.parallelism", out);
      nonNegative(j.getSpec().getCompletions(), "spec.completions", out);
      template(j.getSpec().getTemplate(), List.of("OnFailure", "Never"), out);
    }
    return out;
  }

  /** {@code ValidatePodTemplateSpec} with the restart policies the controller allows. */
  private static void template(
      V1PodTemplateSpec t, List<String> restartPolicies, List<FieldError> out) {
    if (t == null) {
      out.add(FieldErrors.required("spec.template", ""));
      return;
    }
    if (t.getMetadata() != null) {
      Names.labels(t.getMetadata().getLabels(), "spec.template.metadata.labels", out);
    }
    PodSpecs.validate(t.getSpec(), "spec.template.spec", out);
    String policy = t.getSpec() == null ? null : t.getSpec().getRestartPolicy();
    String effective = policy == null || policy.isEmpty() ? "Always" : policy;
    if (!restartPolicies.contains(effective)) {
      out.add(
          FieldErrors.notSupported("spec.template.spec.restartPolicy", effective, restartPolicies));
    }
  }

  private static void nonNegative(Integer v, String path, List<FieldError> out) {
    if (v != null && v < 0) {
      out.add(FieldErrors.invalid(path, v, "must be greater than or equal to 0"));
    }
  }

  /** Renders a label map as Go's {@code %#v} does: {@code map[string]string{"a":"b"}}. */
  static FieldErrors.Raw goMap(Map<String, String> labels) {
    return new FieldErrors.Raw(
        new TreeMap<>(labels)
            .entrySet().stream()
                .map(e -> FieldErrors.quote(e.getKey()) + ":" + FieldErrors.quote(e.getValue()))
                .collect(Collectors.joining(", ", "map[string]string{", "}")));
  }
}
