package io.kubesched.cli.manifest;

import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1Job;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodDisruptionBudget;
import io.kubernetes.client.openapi.models.V1PriorityClass;
import io.kubernetes.client.openapi.models.V1ReplicaSet;
import io.kubernetes.client.openapi.models.V1ReplicationController;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1StatefulSet;
import io.kubesched.framework.Quantities;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Reads Kubernetes manifests — multi-document YAML or JSON, including {@code List} objects such as
 * the output of {@code kubectl get nodes,pods -A -o yaml} — into {@link Manifests}.
 *
 * <p>Every problem is collected and reported together in one {@link ManifestException}: YAML syntax
 * errors with file and line, invalid quantities and unknown fields with the object and the field.
 * Kinds the simulator does not use are skipped with a warning; objects of API groups it does not
 * know (for instance {@code scheduling.x-k8s.io} PodGroups) are kept as custom objects.
 */
public final class ManifestLoader {
  private static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  private static final Set<String> QUANTITY_MAPS =
      Set.of("requests", "limits", "capacity", "allocatable", "overhead");
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
          "node.k8s.io/v1",
          "certificates.k8s.io/v1");
  private static final Pattern UNKNOWN_FIELD =
      Pattern.compile("The field `([^`]*)` in the JSON string is not defined in the `([^`]*)`");

  private final JSON json = new JSON();
  private final List<String> problems = new ArrayList<>();
  private final Manifests out = new Manifests();

  private ManifestLoader() {}

  /**
   * Loads every file.
   *
   * @throws ManifestException listing every problem found in all files
   */
  public static Manifests load(List<Path> files) {
    ManifestLoader loader = new ManifestLoader();
    for (Path f : files) {
      loader.loadFile(f);
    }
    if (!loader.problems.isEmpty()) {
      throw new ManifestException(loader.problems);
    }
    return loader.out;
  }

  /**
   * Loads manifests from a string; {@code source} names it in messages.
   *
   * @throws ManifestException listing every problem
   */
  public static Manifests parse(String source, String text) {
    ManifestLoader loader = new ManifestLoader();
    loader.loadText(source, new StringReader(text));
    if (!loader.problems.isEmpty()) {
      throw new ManifestException(loader.problems);
    }
    return loader.out;
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
    DocConstructor constructor = new DocConstructor();
    Yaml yaml = new Yaml(constructor);
    try {
      for (Node node : yaml.composeAll(reader)) {
        if (node == null) {
          continue;
        }
        int line = node.getStartMark().getLine() + 1;
        Object doc = constructor.construct(node);
        if (doc == null) {
          continue;
        }
        if (!(doc instanceof Map)) {
          problems.add(
              source
                  + ":"
                  + line
                  + ": expected a Kubernetes object (a mapping), found "
                  + describe(doc));
          continue;
        }
        addObject(source, line, castMap(doc));
      }
    } catch (MarkedYAMLException e) {
      Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String where = m == null ? "" : ":" + (m.getLine() + 1) + ":" + (m.getColumn() + 1);
      problems.add(source + where + ": invalid YAML: " + e.getProblem());
    } catch (RuntimeException e) {
      problems.add(source + ": invalid YAML: " + e.getMessage());
    }
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

  private void addObject(String source, int line, Map<String, Object> obj) {
    String kind = string(obj.get("kind"));
    String apiVersion = string(obj.get("apiVersion"));
    String where = source + ":" + line;
    if (kind == null || kind.isEmpty()) {
      problems.add(where + ": object has no kind");
      return;
    }
    if (kind.equals("List") || kind.endsWith("List") && obj.get("items") instanceof List) {
      Object items = obj.get("items");
      if (items instanceof List<?> list) {
        for (int i = 0; i < list.size(); i++) {
          Object item = list.get(i);
          if (item instanceof Map) {
            addObject(source, line, castMap(item));
          } else {
            problems.add(where + ": items[" + i + "] is not an object");
          }
        }
      }
      return;
    }
    String name = objectName(obj);
    String what = kind + " " + name;
    int before = problems.size();
    checkQuantities(where + ": " + what, obj, "");
    if (problems.size() > before) {
      return;
    }
    switch (kind) {
      case "Node" -> {
        int decoded = out.nodes.size();
        decode(where, what, obj, V1Node.class, out.nodes);
        if (out.nodes.size() > decoded) {
          defaultHostnameLabel(where, what, out.nodes.get(decoded), out.warnings);
        }
      }
      case "Pod" -> decode(where, what, obj, V1Pod.class, out.pods);
      case "Namespace" -> decode(where, what, obj, V1Namespace.class, out.namespaces);
      case "PriorityClass" -> decode(where, what, obj, V1PriorityClass.class, out.priorityClasses);
      case "PodDisruptionBudget" ->
          decode(where, what, obj, V1PodDisruptionBudget.class, out.podDisruptionBudgets);
      case "Service" -> decode(where, what, obj, V1Service.class, out.services);
      case "Deployment" -> decode(where, what, obj, V1Deployment.class, out.deployments);
      case "ReplicaSet" -> decode(where, what, obj, V1ReplicaSet.class, out.replicaSets);
      case "StatefulSet" -> decode(where, what, obj, V1StatefulSet.class, out.statefulSets);
      case "Job" -> decode(where, what, obj, V1Job.class, out.jobs);
      case "DaemonSet" -> decode(where, what, obj, V1DaemonSet.class, out.daemonSets);
      case "ReplicationController" ->
          decode(where, what, obj, V1ReplicationController.class, out.replicationControllers);
      default -> {
        if (apiVersion != null && !BUILTIN_GROUPS.contains(apiVersion)) {
          out.customObjects.add(obj);
        } else {
          out.warnings.add(
              where + ": skipping " + what + ": kind " + kind + " is not used by the simulator");
        }
      }
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

  private <T> void decode(
      String where, String what, Map<String, Object> obj, Class<T> type, List<T> into) {
    String text = json.getGson().toJson(obj);
    try {
      into.add(json.deserialize(text, type));
    } catch (RuntimeException e) {
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      Matcher m = UNKNOWN_FIELD.matcher(msg);
      if (m.find()) {
        problems.add(
            where
                + ": "
                + what
                + ": unknown field \""
                + m.group(1)
                + "\" in "
                + m.group(2).replaceFirst("^V1", ""));
      } else {
        int cut = msg.indexOf(" JSON: ");
        problems.add(where + ": " + what + ": " + (cut > 0 ? msg.substring(0, cut) : msg));
      }
    }
  }

  private void checkQuantities(String what, Object value, String path) {
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String key = String.valueOf(e.getKey());
        String p = path.isEmpty() ? key : path + "." + key;
        if (QUANTITY_MAPS.contains(key) && e.getValue() instanceof Map<?, ?> q) {
          for (Map.Entry<?, ?> r : q.entrySet()) {
            Object v = r.getValue();
            String qp = p + "." + r.getKey();
            if (v == null) {
              problems.add(what + ": " + qp + ": quantity must not be empty");
              continue;
            }
            try {
              Quantities.parse(String.valueOf(v));
            } catch (IllegalArgumentException ex) {
              problems.add(what + ": " + qp + ": invalid quantity \"" + v + "\"");
            }
          }
        } else {
          checkQuantities(what, e.getValue(), p);
        }
      }
    } else if (value instanceof List<?> list) {
      for (int i = 0; i < list.size(); i++) {
        checkQuantities(what, list.get(i), path + "[" + i + "]");
      }
    }
  }

  private static String objectName(Map<String, Object> obj) {
    Object meta = obj.get("metadata");
    if (meta instanceof Map<?, ?> m) {
      String ns = string(m.get("namespace"));
      String name = string(m.get("name"));
      if (name == null) {
        name = "<unnamed>";
      }
      return ns == null || ns.isEmpty() ? name : ns + "/" + name;
    }
    return "<unnamed>";
  }

  private static String string(Object o) {
    return o == null ? null : String.valueOf(o);
  }

  /** Exposes document construction from a composed node, so that line numbers are known. */
  private static final class DocConstructor extends SafeConstructor {
    DocConstructor() {
      super(new LoaderOptions());
      // Kubernetes timestamps stay strings; the models parse them.
      this.yamlConstructors.put(Tag.TIMESTAMP, this.yamlConstructors.get(Tag.STR));
    }

    Object construct(Node node) {
      return constructDocument(node);
    }
  }
}
