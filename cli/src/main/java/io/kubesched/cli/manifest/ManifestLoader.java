package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1CSIDriver;
import io.kubernetes.client.openapi.models.V1CSINode;
import io.kubernetes.client.openapi.models.V1CSIStorageCapacity;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1RuntimeClass;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubesched.cli.validation.TypeCheck;
import io.kubesched.cli.validation.Validators;
import io.kubesched.framework.FieldError;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.Construct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.representer.Representer;

/**
 * Reads Kubernetes manifests — multi-document YAML or JSON, including {@code List} objects such as
 * the output of {@code kubectl get nodes,pods -A -o yaml} — into {@link Manifests}, refusing what
 * the API server would refuse.
 *
 * <p>Each object goes through the checks of a create: strict decoding ({@link TypeCheck}: unknown
 * fields, wrong JSON types, quantities), validation ({@link Validators}, kube-apiserver's rules for
 * its kind), uniqueness (a second object with the same kind, namespace and name is refused as
 * {@code pods "x" already exists}) and, once every file is read, the admission plugins the
 * simulator stands in for ({@link NamespaceLifecycle}, {@link Admission}: Priority, RuntimeClass).
 * Every problem is collected and reported together in one {@link ManifestException}, each naming
 * the file, the line and document, the object and the field. Kinds the simulator does not use are
 * skipped with a warning; objects of API groups it does not know (for instance {@code
 * scheduling.x-k8s.io} PodGroups) are kept as custom objects.
 */
public final class ManifestLoader {
  /** A kind the loader decodes: its model, where it goes, its REST resource, its scope. */
  private record KindSpec(
      String apiVersion,
      Class<?> type,
      Function<Manifests, List<?>> into,
      String resource,
      boolean namespaced) {
    String group() {
      int slash = apiVersion.indexOf('/');
      return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
  }

  private static final Map<String, KindSpec> KINDS = kinds();

  private static Map<String, KindSpec> kinds() {
    Map<String, KindSpec> kinds = new LinkedHashMap<>();
    kind(kinds, "v1", "Node", V1Node.class, Manifests::nodes, "nodes", false);
    kind(kinds, "v1", "Pod", V1Pod.class, Manifests::pods, "pods", true);
    kind(kinds, "v1", "Namespace", V1Namespace.class, Manifests::namespaces, "namespaces", false);
    kind(
        kinds,
        "scheduling.k8s.io/v1",
        "PriorityClass",
        V1PriorityClass.class,
        Manifests::priorityClasses,
        "priorityclasses.scheduling.k8s.io",
        false);
    kind(
        kinds,
        "policy/v1",
        "PodDisruptionBudget",
        V1PodDisruptionBudget.class,
        Manifests::podDisruptionBudgets,
        "poddisruptionbudgets.policy",
        true);
    kind(kinds, "v1", "Service", V1Service.class, Manifests::services, "services", true);
    kind(
        kinds,
        "apps/v1",
        "Deployment",
        V1Deployment.class,
        Manifests::deployments,
        "deployments.apps",
        true);
    kind(
        kinds,
        "apps/v1",
        "ReplicaSet",
        V1ReplicaSet.class,
        Manifests::replicaSets,
        "replicasets.apps",
        true);
    kind(
        kinds,
        "apps/v1",
        "StatefulSet",
        V1StatefulSet.class,
        Manifests::statefulSets,
        "statefulsets.apps",
        true);
    kind(kinds, "batch/v1", "Job", V1Job.class, Manifests::jobs, "jobs.batch", true);
    kind(
        kinds,
        "apps/v1",
        "DaemonSet",
        V1DaemonSet.class,
        Manifests::daemonSets,
        "daemonsets.apps",
        true);
    kind(
        kinds,
        "v1",
        "ReplicationController",
        V1ReplicationController.class,
        Manifests::replicationControllers,
        "replicationcontrollers",
        true);
    kind(
        kinds,
        "v1",
        "PersistentVolume",
        V1PersistentVolume.class,
        Manifests::persistentVolumes,
        "persistentvolumes",
        false);
    kind(
        kinds,
        "v1",
        "PersistentVolumeClaim",
        V1PersistentVolumeClaim.class,
        Manifests::persistentVolumeClaims,
        "persistentvolumeclaims",
        true);
    kind(
        kinds,
        "storage.k8s.io/v1",
        "StorageClass",
        V1StorageClass.class,
        Manifests::storageClasses,
        "storageclasses.storage.k8s.io",
        false);
    kind(
        kinds,
        "storage.k8s.io/v1",
        "CSINode",
        V1CSINode.class,
        Manifests::csiNodes,
        "csinodes.storage.k8s.io",
        false);
    kind(
        kinds,
        "storage.k8s.io/v1",
        "CSIDriver",
        V1CSIDriver.class,
        Manifests::csiDrivers,
        "csidrivers.storage.k8s.io",
        false);
    kind(
        kinds,
        "storage.k8s.io/v1",
        "CSIStorageCapacity",
        V1CSIStorageCapacity.class,
        Manifests::csiStorageCapacities,
        "csistoragecapacities.storage.k8s.io",
        true);
    kind(
        kinds,
        "node.k8s.io/v1",
        "RuntimeClass",
        V1RuntimeClass.class,
        Manifests::runtimeClasses,
        "runtimeclasses.node.k8s.io",
        false);
    return Collections.unmodifiableMap(kinds);
  }

  private static final Set<String> DRA_KINDS =
      Set.of("ResourceClaim", "ResourceClaimTemplate", "DeviceClass", "ResourceSlice");

  private static final Set<String> CLUSTER_SCOPED_OTHERS =
      Set.of(
          "StorageClass",
          "PersistentVolume",
          "CSINode",
          "CSIDriver",
          "VolumeAttachment",
          "DeviceClass",
          "ResourceSlice",
          "ClusterRole",
          "ClusterRoleBinding",
          "CustomResourceDefinition",
          "APIService",
          "CertificateSigningRequest",
          "MutatingWebhookConfiguration",
          "ValidatingWebhookConfiguration");

  private static final String HOSTNAME_LABEL = "kubernetes.io/hostname";
  private static final Set<String> BUILTIN_GROUPS =
      Set.of(
          "v1",
          "apps/v1",
          "batch/v1",
          "policy/v1",
          "scheduling.k8s.io/v1",
          "networking.k8s.io/v1",
          "rbac.authorization.k8s.io/v1",
          "storage.k8s.io/v1",
          "autoscaling/v1",
          "autoscaling/v2",
          "coordination.k8s.io/v1",
          "apiextensions.k8s.io/v1",
          "discovery.k8s.io/v1",
          "events.k8s.io/v1",
          "admissionregistration.k8s.io/v1",
          "resource.k8s.io/v1beta1",
          "resource.k8s.io/v1",
          "node.k8s.io/v1",
          "certificates.k8s.io/v1");

  private final JSON json = new JSON();
  private final List<String> problems = new ArrayList<>();
  private final Manifests out = new Manifests();
  private final Validators validators;
  private final TypeCheck typeCheck = new TypeCheck();
  private final Map<String, String> seen = new HashMap<>();
  private final Map<Object, String> origins = new IdentityHashMap<>();
  private final NamespaceLifecycle namespaceLifecycle = new NamespaceLifecycle();

  private ManifestLoader(Validators validators) {
    this.validators = validators;
  }

  private static void kind(
      Map<String, KindSpec> kinds,
      String apiVersion,
      String kind,
      Class<?> type,
      Function<Manifests, List<?>> into,
      String resource,
      boolean namespaced) {
    kinds.put(kind, new KindSpec(apiVersion, type, into, resource, namespaced));
  }

  /**
   * Loads every file.
   *
   * @throws ManifestException listing every problem found in all files
   */
  public static Manifests load(List<Path> files) {
    ManifestLoader loader = new ManifestLoader(Validators.core());
    for (Path f : files) {
      loader.loadFile(f);
    }
    return loader.finish();
  }

  /**
   * Loads manifests from a string; {@code source} names it in messages.
   *
   * @throws ManifestException listing every problem
   */
  public static Manifests parse(String source, String text) {
    ManifestLoader loader = new ManifestLoader(Validators.core());
    loader.loadText(source, new StringReader(text));
    return loader.finish();
  }

  private Manifests finish() {
    problems.addAll(namespaceLifecycle.check(out.namespaces(), out.warnings));
    problems.addAll(Admission.admit(out, origins));
    problems.addAll(DraManifests.adminAccess(out, origins));
    if (!problems.isEmpty()) {
      throw new ManifestException(problems);
    }
    return out;
  }

  private void loadFile(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      problems.add(file + ": no such file");
      return;
    } catch (IOException e) {
      problems.add(file + ": cannot read: " + e.getMessage());
      return;
    }
    loadText(file.toString(), new StringReader(text));
  }

  private void loadText(String source, Reader reader) {
    LoaderOptions options = loaderOptions();
    DocConstructor constructor = new DocConstructor(options);
    DumperOptions dump = new DumperOptions();
    Yaml yaml = new Yaml(constructor, new Representer(dump), dump, options);
    int document = 0;
    try {
      for (Node node : yaml.composeAll(reader)) {
        document++;
        if (node == null) {
          continue;
        }
        int line = node.getStartMark().getLine() + 1;
        Object doc;
        try {
          doc = constructor.construct(node);
        } catch (MarkedYAMLException e) {
          problems.add(source + yamlWhere(e) + ": invalid YAML: " + e.getProblem());
          continue;
        }
        if (doc == null) {
          continue;
        }
        if (!(doc instanceof Map)) {
          problems.add(
              source
                  + ":"
                  + line
                  + " (document "
                  + document
                  + "): expected a Kubernetes object (a mapping), found "
                  + describe(doc));
          continue;
        }
        addObject(source, line, "document " + document, castMap(doc), node);
      }
    } catch (MarkedYAMLException e) {
      problems.add(source + yamlWhere(e) + ": invalid YAML: " + e.getProblem());
    } catch (RuntimeException e) {
      problems.add(source + ": invalid YAML: " + e.getMessage());
    }
  }

  private static String yamlWhere(MarkedYAMLException e) {
    Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
    return m == null ? "" : ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1);
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> castMap(Object o) {
    return (Map<String, Object>) o;
  }

  private static String describe(Object o) {
    if (o instanceof List) {
      return "a list";
    }
    return "\"" + o + "\"";
  }

  private void addObject(
      String source, int line, String document, Map<String, Object> obj, Node node) {
    String where = source + ":" + line + " (" + document + ")";
    Object kindValue = obj.get("kind");
    Object apiValue = obj.get("apiVersion");
    if (kindValue == null || String.valueOf(kindValue).isEmpty()) {
      problems.add(where + ": Object 'Kind' is missing");
      return;
    }
    if (!(kindValue instanceof String kind) || apiValue != null && !(apiValue instanceof String)) {
      problems.add(where + ": kind and apiVersion must be strings");
      return;
    }
    String apiVersion = (String) apiValue;
    if (apiVersion == null || apiVersion.isEmpty()) {
      // what kubectl's decoding says of such a document (apimachinery's NewMissingVersionErr)
      problems.add(where + ": Object 'apiVersion' is missing");
      return;
    }
    if (kind.equals("List") || kind.endsWith("List") && obj.get("items") instanceof List) {
      Object items = obj.get("items");
      if (items instanceof List<?> list) {
        List<Node> itemNodes = itemNodes(node);
        for (int i = 0; i < list.size(); i++) {
          Object item = list.get(i);
          Node itemNode = i < itemNodes.size() ? itemNodes.get(i) : null;
          int itemLine = itemNode == null ? line : itemNode.getStartMark().getLine() + 1;
          String itemDoc = document + ", items[" + i + "]";
          if (item instanceof Map) {
            addObject(source, itemLine, itemDoc, castMap(item), itemNode);
          } else {
            problems.add(
                source + ":" + itemLine + " (" + itemDoc + "): expected a Kubernetes object");
          }
        }
      }
      return;
    }
    KindSpec spec = KINDS.get(kind);
    if (spec != null && apiVersion != null && !apiVersion.equals(spec.apiVersion())) {
      String group =
          apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
      if (BUILTIN_GROUPS.contains(apiVersion) || group.equals(spec.group())) {
        problems.add(
            where
                + ": no matches for kind \""
                + kind
                + "\" in version \""
                + apiVersion
                + "\" (the simulator reads "
                + spec.apiVersion()
                + ")");
        return;
      }
      spec = null; // a custom resource that happens to share a built-in kind's name
    }
    boolean namespaced = spec != null ? spec.namespaced() : !CLUSTER_SCOPED_OTHERS.contains(kind);
    String what = kind + " " + objectName(obj, namespaced);
    if (DRA_KINDS.contains(kind)) {
      // resource.k8s.io/v1 objects: decoded and checked by DraManifests (capacities in v1's
      // {value: ...} form, CEL selectors compiled)
      int before = out.draObjects.size();
      int problemsBefore = problems.size();
      DraManifests.decode(
          where, what, kind, apiVersion, obj, json, problems, out.warnings, out.draObjects);
      if (out.draObjects.size() > before) {
        origins.put(out.draObjects.get(before), where + ": " + what);
      }
      if (namespaced && problems.size() == problemsBefore) {
        namespaceLifecycle.use(namespace(obj), where + ": " + what);
      }
      return;
    }
    if (spec == null) {
      if (apiVersion != null && !BUILTIN_GROUPS.contains(apiVersion)) {
        out.customObjects.add(obj);
        if (namespaced) {
          namespaceLifecycle.use(namespace(obj), where + ": " + what);
        }
      } else {
        out.warnings.add(
            where + ": skipping " + what + ": kind " + kind + " is not used by the simulator");
      }
      return;
    }
    List<FieldError> errors = typeCheck.check(obj, spec.type());
    if (!errors.isEmpty()) {
      errors.forEach(e -> problems.add(where + ": " + what + ": " + render(e)));
      return;
    }
    Object decoded;
    try {
      decoded = json.deserialize(json.getGson().toJson(obj), spec.type());
    } catch (RuntimeException e) {
      // TypeCheck should accept only what the models decode; say what the decoder said
      problems.add(where + ": " + what + ": cannot decode: " + e.getMessage());
      return;
    }
    errors = new ArrayList<>(validators.validate(decoded));
    errors.addAll(StorageValidation.validate(decoded, obj));
    if (!errors.isEmpty()) {
      errors.forEach(e -> problems.add(where + ": " + what + ": " + render(e)));
      return;
    }
    String name = name(obj);
    String key = kind + "/" + (namespaced ? namespace(obj) : "") + "/" + name;
    if (seen.putIfAbsent(key, where) != null) {
      problems.add(
          where
              + ": "
              + what
              + ": "
              + spec.resource()
              + " \""
              + name
              + "\" already exists (first defined at "
              + seen.get(key)
              + ")");
      return;
    }
    origins.put(decoded, where + ": " + what);
    if (namespaced) {
      namespaceLifecycle.use(namespace(obj), where + ": " + what);
    }
    addTo(spec.into().apply(out), decoded);
    if (decoded instanceof V1Node decodedNode) {
      defaultHostnameLabel(where, what, decodedNode, out.warnings);
    }
  }

  /**
   * Gives a node without the {@code kubernetes.io/hostname} label the one the kubelet would have
   * set (its name: the kubelet's hostname, which names the node unless overridden), with a note, so
   * hostname topology spreading and anti-affinity see it as in a real cluster.
   */
  private static void defaultHostnameLabel(
      String where, String what, V1Node node, List<String> notes) {
    if (node.getMetadata() == null || node.getMetadata().getName() == null) {
      return;
    }
    var labels = node.getMetadata().getLabels();
    if (labels != null && labels.containsKey(HOSTNAME_LABEL)) {
      return;
    }
    String name = node.getMetadata().getName();
    node.getMetadata().putLabelsItem(HOSTNAME_LABEL, name);
    notes.add(
        where
            + ": "
            + what
            + ": no "
            + HOSTNAME_LABEL
            + " label: set to \""
            + name
            + "\" as the kubelet would");
  }

  private static String render(FieldError e) {
    return e.path().isEmpty() ? e.message() : e.toString();
  }

  @SuppressWarnings("unchecked")
  private static void addTo(List<?> list, Object o) {
    ((List<Object>) list).add(o);
  }

  private static List<Node> itemNodes(Node node) {
    if (node instanceof MappingNode m) {
      for (NodeTuple t : m.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode k
            && "items".equals(k.getValue())
            && t.getValueNode() instanceof SequenceNode seq) {
          return seq.getValue();
        }
      }
    }
    return List.of();
  }

  private static String objectName(Map<String, Object> obj, boolean namespaced) {
    String name = name(obj);
    if (name.isEmpty()) {
      name = "<unnamed>";
    }
    return namespaced ? namespace(obj) + "/" + name : name;
  }

  private static String name(Map<String, Object> obj) {
    if (obj.get("metadata") instanceof Map<?, ?> m && m.get("name") != null) {
      return String.valueOf(m.get("name"));
    }
    return "";
  }

  private static String namespace(Map<String, Object> obj) {
    if (obj.get("metadata") instanceof Map<?, ?> m
        && m.get("namespace") != null
        && !String.valueOf(m.get("namespace")).isEmpty()) {
      return String.valueOf(m.get("namespace"));
    }
    return "default";
  }

  /**
   * SnakeYAML's options: duplicate keys refused, and room for large clusters: its default limit of
   * 3 MiB of text per stream is below a 15,000-node manifest; the bound here is 128 Mi code points.
   */
  static LoaderOptions loaderOptions() {
    LoaderOptions o = new LoaderOptions();
    o.setAllowDuplicateKeys(false);
    o.setCodePointLimit(MAX_CODE_POINTS);
    return o;
  }

  /** The largest manifest file read, in code points (characters). */
  static final int MAX_CODE_POINTS = 128 * 1024 * 1024;

  /** Exposes document construction from a composed node, so that line numbers are known. */
  private static final class DocConstructor extends SafeConstructor {
    DocConstructor(LoaderOptions options) {
      super(options);
      // Kubernetes timestamps stay strings; the models parse them.
      this.yamlConstructors.put(Tag.TIMESTAMP, this.yamlConstructors.get(Tag.STR));
      // a number beyond a double (1e400) keeps its text, as the API server's JSON decoding does
      Construct floats = this.yamlConstructors.get(Tag.FLOAT);
      this.yamlConstructors.put(
          Tag.FLOAT,
          new AbstractConstruct() {
            @Override
            public Object construct(Node node) {
              Object value = floats.construct(node);
              String text = ((ScalarNode) node).getValue();
              if (value instanceof Double d
                  && d.isInfinite()
                  && !text.toLowerCase(java.util.Locale.ROOT).contains("inf")) {
                return text;
              }
              return value;
            }
          });
    }

    Object construct(Node node) {
      return constructDocument(node);
    }
  }
}
