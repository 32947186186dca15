package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.models.V1Affinity;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1NodeAffinity;
import io.kubernetes.client.openapi.models.V1NodeSelector;
import io.kubernetes.client.openapi.models.V1NodeSelectorRequirement;
import io.kubernetes.client.openapi.models.V1NodeSelectorTerm;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicaSetSpec;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1Toleration;
import io.kubesched.core.cluster.ObjectCopier;
import io.kubesched.framework.NodeSelector;
import io.kubesched.framework.Taint;
import io.kubesched.framework.Toleration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Expands workload objects into the pods their controllers would create, deterministically:
 * Deployments (through a ReplicaSet of the same name), ReplicaSets, ReplicationControllers,
 * StatefulSets and Jobs make pods named {@code <owner>-<index>} with the template's labels and a
 * controller owner reference; DaemonSets make one pod per eligible node, pinned to it with node
 * affinity on {@code metadata.name} and the tolerations the DaemonSet controller adds.
 */
public final class WorkloadExpander {
  private static final List<V1Toleration> DAEMON_TOLERATIONS =
      List.of(
          toleration("node.kubernetes.io/not-ready", "NoExecute"),
          toleration("node.kubernetes.io/unreachable", "NoExecute"),
          toleration("node.kubernetes.io/disk-pressure", "NoSchedule"),
          toleration("node.kubernetes.io/memory-pressure", "NoSchedule"),
          toleration("node.kubernetes.io/pid-pressure", "NoSchedule"),
          toleration("node.kubernetes.io/unschedulable", "NoSchedule"));

  private WorkloadExpander() {}

  /** The result of an expansion. */
  public record Expansion(
      List<V1Pod> pods,
      List<V1ReplicaSet> replicaSets,
      List<V1PersistentVolumeClaim> persistentVolumeClaims) {}

  /**
   * Returns the pods of {@code m}'s workloads (not the pods listed as pods), the ReplicaSets
   * created for Deployments and the claims of StatefulSets' {@code volumeClaimTemplates} (named
   * {@code <template>-<statefulset>-<ordinal>} as the StatefulSet controller names them, for every
   * ordinal below {@code replicas} whose claim the input does not list).
   */
  public static Expansion expand(Manifests m) {
    Existing existing = new Existing(m);
    List<V1Pod> pods = new ArrayList<>();
    List<V1ReplicaSet> createdReplicaSets = new ArrayList<>();
    List<V1PersistentVolumeClaim> claims = new ArrayList<>();
    for (V1Deployment d : m.deployments()) {
      V1ObjectMeta dm = meta(d.getMetadata());
      if (existing.hasOwnedReplicaSet(ns(dm), dm.getName())) {
        // a dump with the Deployment's ReplicaSets: they (and their pods) stand for it
        continue;
      }
      V1ReplicaSet rs =
          new V1ReplicaSet()
              .apiVersion("apps/v1")
              .kind("ReplicaSet")
              .metadata(
                  new V1ObjectMeta()
                      .name(dm.getName())
                      .namespace(ns(dm))
                      .uid(uid("ReplicaSet", ns(dm), dm.getName()))
                      .labels(templateLabels(d.getSpec().getTemplate()))
                      .addOwnerReferencesItem(owner("apps/v1", "Deployment", dm.getName(), ns(dm))))
              .spec(
                  new V1ReplicaSetSpec()
                      .replicas(d.getSpec().getReplicas())
                      .selector(d.getSpec().getSelector())
                      .template(d.getSpec().getTemplate()));
      createdReplicaSets.add(rs);
      replicate(
          pods,
          existing,
          "apps/v1",
          "ReplicaSet",
          dm.getName(),
          ns(dm),
          d.getSpec().getTemplate(),
          replicas(d.getSpec().getReplicas()),
          false);
    }
    for (V1ReplicaSet rs : m.replicaSets()) {
      V1ObjectMeta md = meta(rs.getMetadata());
      replicate(
          pods,
          existing,
          "apps/v1",
          "ReplicaSet",
          md.getName(),
          ns(md),
          rs.getSpec().getTemplate(),
          replicas(rs.getSpec().getReplicas()),
          false);
    }
    for (V1ReplicationController rc : m.replicationControllers()) {
      V1ObjectMeta md = meta(rc.getMetadata());
      replicate(
          pods,
          existing,
          "v1",
          "ReplicationController",
          md.getName(),
          ns(md),
          rc.getSpec().getTemplate(),
          replicas(rc.getSpec().getReplicas()),
          false);
    }
    for (V1StatefulSet ss : m.statefulSets()) {
      V1ObjectMeta md = meta(ss.getMetadata());
      replicate(
          pods,
          existing,
          "apps/v1",
          "StatefulSet",
          md.getName(),
          ns(md),
          ss.getSpec().getTemplate(),
          replicas(ss.getSpec().getReplicas()),
          true);
      StatefulSetClaims.addClaims(ss, m.persistentVolumeClaims(), claims);
      StatefulSetClaims.addVolumes(ss, pods);
    }
    for (V1Job job : m.jobs()) {
      V1ObjectMeta md = meta(job.getMetadata());
      int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
      Integer completions = job.getSpec().getCompletions();
      int n = completions == null ? parallelism : Math.min(parallelism, completions);
      int before = pods.size();
      replicate(
          pods,
          existing,
          "batch/v1",
          "Job",
          md.getName(),
          ns(md),
          job.getSpec().getTemplate(),
          n,
          false);
      for (V1Pod p : pods.subList(before, pods.size())) {
        p.getMetadata().putLabelsItem("job-name", md.getName());
        p.getMetadata().putLabelsItem("batch.kubernetes.io/job-name", md.getName());
      }
    }
    for (V1DaemonSet ds : m.daemonSets()) {
      V1ObjectMeta md = meta(ds.getMetadata());
      int index = 0;
      for (V1Node node : m.nodes()) {
        if (!shouldRunDaemonPod(ds.getSpec().getTemplate(), node)
            || existing.daemonPodOn(ns(md), md.getName(), node.getMetadata().getName())) {
          continue;
        }
        V1Pod pod =
            podFromTemplate(
                ds.getSpec().getTemplate(),
                md.getName() + "-" + index,
                ns(md),
                owner("apps/v1", "DaemonSet", md.getName(), ns(md)));
        pinToNode(pod, node.getMetadata().getName());
        for (V1Toleration t : DAEMON_TOLERATIONS) {
          if (pod.getSpec().getTolerations() == null
              || !pod.getSpec().getTolerations().contains(t)) {
            pod.getSpec().addTolerationsItem(t);
          }
        }
        pods.add(pod);
        index++;
      }
    }
    return new Expansion(pods, createdReplicaSets, claims);
  }

  private static void replicate(
      List<V1Pod> into,
      Existing existing,
      String apiVersion,
      String kind,
      String ownerName,
      String namespace,
      V1PodTemplateSpec template,
      int replicas,
      boolean stateful) {
    int missing = replicas - existing.ownedBy(namespace, kind, ownerName);
    for (int i = 0; missing > 0; i++) {
      String name = ownerName + "-" + i;
      if (existing.hasPod(namespace, name)) {
        continue;
      }
      missing--;
      V1Pod pod =
          podFromTemplate(template, name, namespace, owner(apiVersion, kind, ownerName, namespace));
      if (stateful) {
        pod.getMetadata().putLabelsItem("statefulset.kubernetes.io/pod-name", name);
        pod.getMetadata().putLabelsItem("apps.kubernetes.io/pod-index", Integer.toString(i));
      }
      into.add(pod);
    }
  }

  /** The pods listed in the input, indexed by controller and by name. */
  private static final class Existing {
    private final java.util.Set<String> podKeys = new java.util.HashSet<>();
    private final Map<String, List<V1Pod>> byOwner = new java.util.HashMap<>();
    private final java.util.Set<String> replicaSetOwners = new java.util.HashSet<>();

    Existing(Manifests m) {
      for (V1Pod p : m.pods()) {
        V1ObjectMeta pm = meta(p.getMetadata());
        podKeys.add(ns(pm) + "/" + pm.getName());
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
          continue;
        }
        for (V1OwnerReference o :
            pm.getOwnerReferences() == null
                ? List.<V1OwnerReference>of()
                : pm.getOwnerReferences()) {
          if (Boolean.TRUE.equals(o.getController())) {
            byOwner
                .computeIfAbsent(
                    ns(pm) + "/" + o.getKind() + "/" + o.getName(), k -> new ArrayList<>())
                .add(p);
          }
        }
      }
      for (V1ReplicaSet rs : m.replicaSets()) {
        V1ObjectMeta rm = meta(rs.getMetadata());
        for (V1OwnerReference o :
            rm.getOwnerReferences() == null
                ? List.<V1OwnerReference>of()
                : rm.getOwnerReferences()) {
          if ("Deployment".equals(o.getKind())) {
            replicaSetOwners.add(ns(rm) + "/" + o.getName());
          }
        }
      }
    }

    boolean hasPod(String namespace, String name) {
      return podKeys.contains(namespace + "/" + name);
    }

    int ownedBy(String namespace, String kind, String name) {
      return byOwner.getOrDefault(namespace + "/" + kind + "/" + name, List.of()).size();
    }

    boolean hasOwnedReplicaSet(String namespace, String deployment) {
      return replicaSetOwners.contains(namespace + "/" + deployment);
    }

    boolean daemonPodOn(String namespace, String daemonSet, String node) {
      for (V1Pod p : byOwner.getOrDefault(namespace + "/DaemonSet/" + daemonSet, List.of())) {
        if (node.equals(p.getSpec() == null ? null : p.getSpec().getNodeName())) {
          return true;
        }
        io.kubesched.framework.NodeSelector pin =
            io.kubesched.framework.PodInfo.of(p).requiredNodeAffinity();
        if (pin != null && pin.matches(node, Map.of())) {
          return true;
        }
      }
      return false;
    }
  }

  private static V1Pod podFromTemplate(
      V1PodTemplateSpec template, String name, String namespace, V1OwnerReference owner) {
    V1PodSpec spec = template == null ? null : template.getSpec();
    V1Pod pod = new V1Pod().apiVersion("v1").kind("Pod");
    V1ObjectMeta meta =
        new V1ObjectMeta()
            .name(name)
            .namespace(namespace)
            .uid(uid("Pod", namespace, name))
            .labels(templateLabels(template))
            .addOwnerReferencesItem(owner);
    if (template != null
        && template.getMetadata() != null
        && template.getMetadata().getAnnotations() != null) {
      meta.annotations(new LinkedHashMap<>(template.getMetadata().getAnnotations()));
    }
    pod.metadata(meta);
    pod.spec(deepCopy(spec));
    return pod;
  }

  private static Map<String, String> templateLabels(V1PodTemplateSpec template) {
    if (template == null
        || template.getMetadata() == null
        || template.getMetadata().getLabels() == null) {
      return new LinkedHashMap<>();
    }
    return new LinkedHashMap<>(template.getMetadata().getLabels());
  }

  private static V1PodSpec deepCopy(V1PodSpec spec) {
    if (spec == null) {
      return new V1PodSpec();
    }
    // Field by field, the copy the JSON round trip made (a new JSON instance and a round trip per
    // replica were a tenth of simulate's time on examples/clusters/large.yaml).
    return ObjectCopier.deepCopy(spec);
  }

  /** Pins {@code pod} to {@code nodeName} as the DaemonSet controller does. */
  static void pinToNode(V1Pod pod, String nodeName) {
    V1NodeSelectorRequirement field =
        new V1NodeSelectorRequirement().key("metadata.name").operator("In").addValuesItem(nodeName);
    V1PodSpec spec = pod.getSpec();
    if (spec.getAffinity() == null) {
      spec.affinity(new V1Affinity());
    }
    V1Affinity aff = spec.getAffinity();
    if (aff.getNodeAffinity() == null) {
      aff.nodeAffinity(new V1NodeAffinity());
    }
    V1NodeAffinity na = aff.getNodeAffinity();
    V1NodeSelector required = na.getRequiredDuringSchedulingIgnoredDuringExecution();
    if (required == null
        || required.getNodeSelectorTerms() == null
        || required.getNodeSelectorTerms().isEmpty()) {
      na.requiredDuringSchedulingIgnoredDuringExecution(
          new V1NodeSelector()
              .addNodeSelectorTermsItem(new V1NodeSelectorTerm().addMatchFieldsItem(field)));
      return;
    }
    for (V1NodeSelectorTerm term : required.getNodeSelectorTerms()) {
      term.setMatchFields(new ArrayList<>(List.of(field)));
    }
  }

  private static boolean shouldRunDaemonPod(V1PodTemplateSpec template, V1Node node) {
    V1PodSpec spec = template == null ? null : template.getSpec();
    if (spec == null) {
      return true;
    }
    String nodeName = node.getMetadata().getName();
    Map<String, String> labels =
        node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    if (spec.getNodeName() != null
        && !spec.getNodeName().isEmpty()
        && !spec.getNodeName().equals(nodeName)) {
      return false;
    }
    if (spec.getNodeSelector() != null) {
      for (Map.Entry<String, String> e : spec.getNodeSelector().entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return false;
        }
      }
    }
    if (spec.getAffinity() != null
        && spec.getAffinity().getNodeAffinity() != null
        && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
            != null) {
      NodeSelector sel =
          NodeSelector.compile(
              spec.getAffinity()
                  .getNodeAffinity()
                  .getRequiredDuringSchedulingIgnoredDuringExecution());
      if (!sel.matches(nodeName, labels)) {
        return false;
      }
    }
    List<Toleration> tolerations = new ArrayList<>();
    if (spec.getTolerations() != null) {
      for (V1Toleration t : spec.getTolerations()) {
        tolerations.add(Toleration.of(t));
      }
    }
    for (V1Toleration t : DAEMON_TOLERATIONS) {
      tolerations.add(Toleration.of(t));
    }
    if (node.getSpec() != null && node.getSpec().getTaints() != null) {
      for (var t : node.getSpec().getTaints()) {
        Taint taint = Taint.of(t);
        boolean blocking =
            Taint.NO_SCHEDULE.equals(taint.effect()) || Taint.NO_EXECUTE.equals(taint.effect());
        if (blocking && !Toleration.anyTolerates(tolerations, taint)) {
          return false;
        }
      }
    }
    return true;
  }

  private static V1Toleration toleration(String key, String effect) {
    return new V1Toleration().key(key).operator("Exists").effect(effect);
  }

  private static V1OwnerReference owner(
      String apiVersion, String kind, String name, String namespace) {
    return new V1OwnerReference()
        .apiVersion(apiVersion)
        .kind(kind)
        .name(name)
        .uid(uid(kind, namespace, name))
        .controller(true)
        .blockOwnerDeletion(true);
  }

  private static V1ObjectMeta meta(V1ObjectMeta m) {
    return m == null ? new V1ObjectMeta().name("<unnamed>") : m;
  }

  private static String ns(V1ObjectMeta m) {
    return m.getNamespace() == null || m.getNamespace().isEmpty() ? "default" : m.getNamespace();
  }

  /**
   * Returns an upper bound of the pods the input holds once expanded: its pods plus every
   * workload's replicas (a Job's {@code min(parallelism, completions)}, a DaemonSet's one pod per
   * node), without expanding anything, so that a huge {@code replicas} is refused before it costs
   * memory.
   */
  public static long podCountBound(Manifests m) {
    long n = m.pods().size();
    for (V1Deployment d : m.deployments()) {
      n += replicas(d.getSpec() == null ? null : d.getSpec().getReplicas());
    }
    for (V1ReplicaSet rs : m.replicaSets()) {
      n += replicas(rs.getSpec() == null ? null : rs.getSpec().getReplicas());
    }
    for (V1ReplicationController rc : m.replicationControllers()) {
      n += replicas(rc.getSpec() == null ? null : rc.getSpec().getReplicas());
    }
    for (V1StatefulSet ss : m.statefulSets()) {
      n += replicas(ss.getSpec() == null ? null : ss.getSpec().getReplicas());
    }
    for (V1Job job : m.jobs()) {
      Integer parallelism = job.getSpec() == null ? null : job.getSpec().getParallelism();
      Integer completions = job.getSpec() == null ? null : job.getSpec().getCompletions();
      int p = parallelism == null ? 1 : parallelism;
      n += completions == null ? p : Math.min(p, completions);
    }
    n += (long) m.daemonSets().size() * m.nodes().size();
    return n;
  }

  private static int replicas(Integer r) {
    return r == null ? 1 : r;
  }

  /** Returns a deterministic UID for an object. */
  public static String uid(String kind, String namespace, String name) {
    return UUID.nameUUIDFromBytes(
            (kind + "/" + namespace + "/" + name).getBytes(StandardCharsets.UTF_8))
        .toString();
  }
}
