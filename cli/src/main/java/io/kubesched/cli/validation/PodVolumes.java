package io.kubesched.cli.validation;

import static io.kubesched.cli.validation.Selectors.nullToEmpty;

import io.kubernetes.client.openapi.models.V1Volume;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.validation.FieldErrors;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube-apiserver's {@code ValidateVolumes} for a pod's volumes: a DNS-1123 label name, unique, and
 * exactly one volume source. The sources' own fields are not checked.
 */
final class PodVolumes {
  /** The getters of {@link V1Volume}'s sources (every property but the name), by field name. */
  private static final List<Method> SOURCES =
      Arrays.stream(V1Volume.class.getMethods())
          .filter(m -> m.getName().startsWith("get") && m.getParameterCount() == 0)
          .filter(m -> !Modifier.isStatic(m.getModifiers()))
          .filter(m -> !m.getName().equals("getName") && !m.getName().equals("getClass"))
          .sorted(Comparator.comparing(Method::getName))
          .toList();

  private PodVolumes() {}

  /**
   * Validates {@code volumes} at {@code path} and returns the names of the valid ones (what the
   * containers' volume mounts may name).
   */
  static Set<String> validate(List<V1Volume> volumes, String path, List<FieldError> out) {
    Set<String> valid = new HashSet<>();
    if (volumes == null) {
      return valid;
    }
    for (int i = 0; i < volumes.size(); i++) {
      V1Volume v = volumes.get(i);
      String p = FieldErrors.index(path, i);
      List<FieldError> errs = new ArrayList<>();
      List<String> sources = sources(v);
      if (sources.isEmpty()) {
        errs.add(FieldErrors.required(p, "must specify a volume type"));
      } else {
        for (String extra : sources.subList(1, sources.size())) {
          errs.add(
              FieldErrors.forbidden(
                  FieldErrors.child(p, extra), "may not specify more than 1 volume type"));
        }
      }
      String name = nullToEmpty(v.getName());
      String namePath = FieldErrors.child(p, "name");
      if (name.isEmpty()) {
        errs.add(FieldErrors.required(namePath, ""));
      } else {
        Names.invalid(namePath, name, Names.dns1123Label(name), errs);
      }
      if (valid.contains(name)) {
        errs.add(FieldErrors.duplicate(namePath, name));
      }
      if (errs.isEmpty()) {
        valid.add(name);
      }
      out.addAll(errs);
    }
    return valid;
  }

  /** The JSON names of the sources {@code v} sets, in kube's field order as far as it matters. */
  private static List<String> sources(V1Volume v) {
    List<String> set = new ArrayList<>();
    for (Method m : SOURCES) {
      try {
        if (m.invoke(v) != null) {
          String field = m.getName().substring(3);
          set.add(Character.toLowerCase(field.charAt(0)) + field.substring(1));
        }
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("reading " + m.getName() + " of a V1Volume", e);
      }
    }
    return set;
  }
}
