package io.kubesched.cli.validation;

import io.kubernetes.client.custom.Quantity;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-apiserver's resource-list checks: resource names ({@code validateResourceName}, {@code
 * validateContainerResourceName}), quantity values ({@code ValidateResourceQuantityValue}) and
 * container requirements ({@code ValidateResourceRequirements}: requests within limits, extended
 * resources with equal limits).
 */
final class Resources {
  private static final Set<String> STANDARD =
      Set.of(
          "cpu",
          "memory",
          "ephemeral-storage",
          "storage",
          "pods",
          "services",
          "replicationcontrollers",
          "resourcequotas",
          "secrets",
          "configmaps",
          "persistentvolumeclaims",
          "services.nodeports",
          "services.loadbalancers",
          "requests.cpu",
          "requests.memory",
          "requests.storage",
          "requests.ephemeral-storage",
          "limits.cpu",
          "limits.memory",
          "limits.ephemeral-storage");
  private static final Set<String> STANDARD_CONTAINER =
      Set.of("cpu", "memory", "ephemeral-storage");
  private static final Set<String> INTEGER =
      Set.of(
          "pods",
          "resourcequotas",
          "services",
          "replicationcontrollers",
          "secrets",
          "configmaps",
          "persistentvolumeclaims",
          "services.nodeports",
          "services.loadbalancers");
  private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);
  private static final BigDecimal MAX_OTHER = BigDecimal.valueOf(Long.MAX_VALUE);
  private static final BigDecimal MAX_CPU = MAX_OTHER.divide(THOUSAND);

  private Resources() {}

  /** A node's capacity or allocatable (path {@code status.capacity.<name>}, as kube writes it). */
  static void nodeResources(Map<String, Quantity> list, String path, List<FieldError> out) {
    if (list == null) {
      return;
    }
    list.forEach(
        (name, q) -> {
          String p = FieldErrors.child(path, name);
          resourceName(name, p, out);
          quantityValue(name, q, p, out);
        });
  }

  /** A pod's overhead or a RuntimeClass's podFixed ({@code <path>[<name>]}). */
  static void overhead(Map<String, Quantity> list, String path, List<FieldError> out) {
    if (list == null) {
      return;
    }
    list.forEach(
        (name, q) -> {
          String p = path + "[" + name + "]";
          containerResourceName(name, p, out);
          quantityValue(name, q, p, out);
        });
  }

  /** {@code ValidateResourceRequirements} of a container. */
  static void requirements(
      Map<String, Quantity> requests,
      Map<String, Quantity> limits,
      String path,
      List<FieldError> out) {
    String limPath = FieldErrors.child(path, "limits");
    String reqPath = FieldErrors.child(path, "requests");
    if (limits != null) {
      limits.forEach(
          (name, q) -> {
            String p = limPath + "[" + name + "]";
            containerResourceName(name, p, out);
            quantityValue(name, q, p, out);
          });
    }
    if (requests == null) {
      return;
    }
    requests.forEach(
        (name, q) -> {
          String p = reqPath + "[" + name + "]";
          containerResourceName(name, p, out);
          quantityValue(name, q, p, out);
          Quantity limit = limits == null ? null : limits.get(name);
          if (limit != null) {
            int cmp = q.getNumber().compareTo(limit.getNumber());
            if (cmp != 0 && !overcommitAllowed(name)) {
              out.add(
                  FieldErrors.invalid(
                      reqPath, text(q), "must be equal to " + name + " limit of " + text(limit)));
            } else if (cmp > 0) {
              out.add(
                  FieldErrors.invalid(
                      reqPath,
                      text(q),
                      "must be less than or equal to " + name + " limit of " + text(limit)));
            }
          } else if (!overcommitAllowed(name)) {
            out.add(
                FieldErrors.required(
                    limPath, "Limit must be set for non overcommitable resources"));
          }
        });
  }

  /** {@code validateResourceName}. */
  static boolean resourceName(String name, String path, List<FieldError> out) {
    int before = out.size();
    Names.invalid(path, name, QualifiedNames.isQualifiedName(name), out);
    if (out.size() > before) {
      return false;
    }
    if (!name.contains("/") && !STANDARD.contains(name) && !name.startsWith("hugepages-")) {
      out.add(
          FieldErrors.invalid(path, name, "must be a standard resource type or fully qualified"));
      return false;
    }
    return true;
  }

  /** {@code validateContainerResourceName}. */
  static void containerResourceName(String name, String path, List<FieldError> out) {
    if (!resourceName(name, path, out)) {
      return;
    }
    if (!name.contains("/")) {
      if (!STANDARD_CONTAINER.contains(name) && !name.startsWith("hugepages-")) {
        out.add(FieldErrors.invalid(path, name, "must be a standard resource for containers"));
      }
    } else if (!nativeResource(name) && !QualifiedNames.isExtendedResourceName(name)) {
      out.add(FieldErrors.invalid(path, name, "doesn't follow extended resource name standard"));
    }
  }

  /** {@code ValidateResourceQuantityValue}. */
  static void quantityValue(String name, Quantity q, String path, List<FieldError> out) {
    if (q == null) {
      return;
    }
    if (q.getNumber().signum() < 0) {
      out.add(FieldErrors.invalid(path, text(q), "must be greater than or equal to 0"));
    }
    BigDecimal limit = "cpu".equals(name) ? MAX_CPU : MAX_OTHER;
    if (q.getNumber().compareTo(limit) > 0) {
      out.add(
          FieldErrors.invalid(
              path,
              text(q),
              "must be no more than "
                  + ("cpu".equals(name) ? Long.MAX_VALUE + "m" : Long.toString(Long.MAX_VALUE))
                  + ": the scheduler counts "
                  + ("cpu".equals(name) ? "cpu in millicores" : "resources")
                  + " in 64-bit integers"));
    }
    boolean integer = INTEGER.contains(name) || QualifiedNames.isExtendedResourceName(name);
    if (integer && q.getNumber().multiply(THOUSAND).remainder(THOUSAND).signum() != 0) {
      out.add(FieldErrors.invalid(path, new FieldErrors.Raw(text(q)), "must be an integer"));
    }
  }

  private static boolean nativeResource(String name) {
    return !name.contains("/") || name.contains("kubernetes.io/");
  }

  private static boolean overcommitAllowed(String name) {
    return nativeResource(name) && !name.startsWith("hugepages-");
  }

  /** The canonical text of {@code q}, negative values as kube prints them ({@code -1Gi}). */
  static String text(Quantity q) {
    try {
      if (q.getNumber().signum() < 0) {
        return "-" + new Quantity(q.getNumber().negate(), q.getFormat()).toSuffixedString();
      }
      return q.toSuffixedString();
    } catch (RuntimeException e) {
      return q.getNumber().stripTrailingZeros().toPlainString();
    }
  }
}
