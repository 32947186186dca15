package io.kubesched.cli.manifest;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1DeviceSubRequest;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import java.util.List;
import java.util.Map;

/**
 * Decodes and checks the DRA kinds of {@code resource.k8s.io/v1}: ResourceClaim,
 * ResourceClaimTemplate, DeviceClass and ResourceSlice, with the API server's checks that matter
 * for scheduling (the version, required fields, exactly one of {@code exactly} and {@code
 * firstAvailable}, allocation modes, and CEL selectors that compile), each problem naming the
 * object and the field in kube's words.
 */
final class DraManifests {
  private static final String API_VERSION = "resource.k8s.io/v1";

  private DraManifests() {}

  static void decode(
      String where,
      String what,
      String kind,
      String apiVersion,
      Map<String, Object> obj,
      JSON json,
      List<String> problems,
      List<String> warnings,
      List<KubernetesObject> into) {
    if (!API_VERSION.equals(apiVersion)) {
      problems.add(
          where
              + ": "
              + what
              + ": apiVersion: Unsupported value: \""
              + apiVersion
              + "\": supported values: \""
              + API_VERSION
              + "\"");
      return;
    }
    Class<? extends KubernetesObject> type =
        switch (kind) {
          case "ResourceClaim" -> ResourceV1ResourceClaim.class;
          case "ResourceClaimTemplate" -> V1ResourceClaimTemplate.class;
          case "DeviceClass" -> V1DeviceClass.class;
          default -> V1ResourceSlice.class;
        };
    KubernetesObject o;
    try {
      o = json.deserialize(json.getGson().toJson(obj), type);
    } catch (RuntimeException e) {
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      int cut = msg.indexOf(" JSON: ");
      problems.add(where + ": " + what + ": " + (cut > 0 ? msg.substring(0, cut) : msg));
      return;
    }
    int before = problems.size();
    String prefix = where + ": " + what + ": ";
    if (o instanceof ResourceV1ResourceClaim c) {
      checkClaimSpec(prefix, "spec", c.getSpec(), problems);
    } else if (o instanceof V1ResourceClaimTemplate t) {
      checkClaimSpec(
          prefix, "spec.spec", t.getSpec() == null ? null : t.getSpec().getSpec(), problems);
    } else if (o instanceof V1DeviceClass dc && dc.getSpec() != null) {
      checkSelectors(prefix, "spec.selectors", dc.getSpec().getSelectors(), problems);
    } else if (o instanceof V1ResourceSlice s) {
      if (s.getSpec() == null || s.getSpec().getDriver() == null) {
        problems.add(prefix + "spec.driver: Required value");
      }
      if (s.getSpec() != null && s.getSpec().getPool() == null) {
        problems.add(prefix + "spec.pool: Required value");
      }
    }
    if (problems.size() == before) {
      DraGatedFields.strip(prefix, o, warnings);
      into.add(o);
    }
  }

  private static void checkClaimSpec(
      String prefix, String path, V1ResourceClaimSpec spec, List<String> problems) {
    V1DeviceClaim devices = spec == null ? null : spec.getDevices();
    if (devices == null || devices.getRequests() == null) {
      return;
    }
    List<V1DeviceRequest> requests = devices.getRequests();
    for (int i = 0; i < requests.size(); i++) {
      V1DeviceRequest r = requests.get(i);
      String rp = path + ".devices.requests[" + i + "]";
      if (r.getName() == null || r.getName().isEmpty()) {
        problems.add(prefix + rp + ".name: Required value");
      }
      boolean hasSubs = r.getFirstAvailable() != null && !r.getFirstAvailable().isEmpty();
      if ((r.getExactly() == null) == !hasSubs) {
        problems.add(
            prefix
                + rp
                + ": Invalid value: exactly one of `exactly` or `firstAvailable` is required");
        continue;
      }
      if (r.getExactly() != null) {
        checkRequest(
            prefix,
            rp + ".exactly",
            r.getExactly().getDeviceClassName(),
            r.getExactly().getAllocationMode(),
            r.getExactly().getCount(),
            r.getExactly().getSelectors(),
            problems);
      } else {
        for (int j = 0; j < r.getFirstAvailable().size(); j++) {
          V1DeviceSubRequest s = r.getFirstAvailable().get(j);
          checkRequest(
              prefix,
              rp + ".firstAvailable[" + j + "]",
              s.getDeviceClassName(),
              s.getAllocationMode(),
              s.getCount(),
              s.getSelectors(),
              problems);
        }
      }
    }
  }

  private static void checkRequest(
      String prefix,
      String path,
      String className,
      String mode,
      Long count,
      List<V1DeviceSelector> selectors,
      List<String> problems) {
    if (className == null || className.isEmpty()) {
      problems.add(prefix + path + ".deviceClassName: Required value");
    }
    if (mode != null && !mode.equals("ExactCount") && !mode.equals("All")) {
      problems.add(
          prefix
              + path
              + ".allocationMode: Unsupported value: \""
              + mode
              + "\": supported values: \"All\", \"ExactCount\"");
    }
    if (count != null && count <= 0 && !"All".equals(mode)) {
      problems.add(
          prefix + path + ".count: Invalid value: " + count + ": must be greater than zero");
    }
    checkSelectors(prefix, path + ".selectors", selectors, problems);
  }

  private static void checkSelectors(
      String prefix, String path, List<V1DeviceSelector> selectors, List<String> problems) {
    if (selectors == null) {
      return;
    }
    for (int i = 0; i < selectors.size(); i++) {
      V1DeviceSelector s = selectors.get(i);
      String sp = path + "[" + i + "].cel.expression";
      if (s.getCel() == null || s.getCel().getExpression() == null) {
        problems.add(prefix + path + "[" + i + "].cel: Required value");
        continue;
      }
      String error =
          io.kubesched.plugins.dynamicresources.CelCheck.compileError(s.getCel().getExpression());
      if (error != null) {
        problems.add(
            prefix
                + sp
                + ": Invalid value: \""
                + s.getCel().getExpression()
                + "\": "
                + error.replace('\n', ' '));
      }
    }
  }

  /** kube's {@code resource.DRAAdminNamespaceLabelKey}. */
  static final String ADMIN_NAMESPACE_LABEL = "resource.kubernetes.io/admin-access";

  /**
   * The API server's admin-access check (DRAAdminAccess, beta and on in kube v1.34): a claim or
   * template with a request asking for {@code adminAccess: true} is refused unless its namespace
   * carries the label {@code resource.kubernetes.io/admin-access: "true"}; a namespace missing from
   * the input counts as unlabelled. Only the first such request is named, as in kube.
   */
  static List<String> adminAccess(Manifests m, Map<Object, String> origins) {
    java.util.Set<String> admin = new java.util.HashSet<>();
    for (io.kubernetes.client.openapi.models.V1Namespace ns : m.namespaces()) {
      Map<String, String> labels = ns.getMetadata().getLabels();
      if (labels != null && "true".equals(labels.get(ADMIN_NAMESPACE_LABEL))) {
        admin.add(ns.getMetadata().getName());
      }
    }
    List<String> problems = new java.util.ArrayList<>();
    for (KubernetesObject o : m.draObjects()) {
      String path;
      V1ResourceClaimSpec spec;
      if (o instanceof ResourceV1ResourceClaim c) {
        path = "spec";
        spec = c.getSpec();
      } else if (o instanceof V1ResourceClaimTemplate t && t.getSpec() != null) {
        path = "spec.spec";
        spec = t.getSpec().getSpec();
      } else {
        continue;
      }
      if (spec == null || spec.getDevices() == null || spec.getDevices().getRequests() == null) {
        continue;
      }
      String ns =
          o.getMetadata().getNamespace() == null ? "default" : o.getMetadata().getNamespace();
      List<V1DeviceRequest> requests = spec.getDevices().getRequests();
      for (int i = 0; i < requests.size(); i++) {
        V1DeviceRequest r = requests.get(i);
        if (r.getExactly() != null && Boolean.TRUE.equals(r.getExactly().getAdminAccess())) {
          if (!admin.contains(ns)) {
            problems.add(
                origins.get(o)
                    + ": "
                    + path
                    + ".devices.requests["
                    + i
                    + "].adminAccess: Forbidden: admin access to devices requires the `"
                    + ADMIN_NAMESPACE_LABEL
                    + ": true` label on the containing namespace");
          }
          break;
        }
      }
    }
    return problems;
  }
}
