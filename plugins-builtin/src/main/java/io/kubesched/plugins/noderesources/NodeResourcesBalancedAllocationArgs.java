package io.kubesched.plugins.noderesources;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.validation.FieldErrors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The arguments of {@link BalancedAllocation} ({@code NodeResourcesBalancedAllocationArgs}).
 *
 * @param resources the resources whose usage is balanced; empty means cpu and memory
 */
public record NodeResourcesBalancedAllocationArgs(List<ResourceSpec> resources)
    implements PluginArgs {
  /** Applies kube's defaults: no resources means cpu and memory. */
  public NodeResourcesBalancedAllocationArgs {
    resources =
        resources == null || resources.isEmpty() ? ResourceSpec.DEFAULTS : List.copyOf(resources);
  }

  /** Returns the default arguments. */
  public static NodeResourcesBalancedAllocationArgs defaults() {
    return new NodeResourcesBalancedAllocationArgs(ResourceSpec.DEFAULTS);
  }

  /** Validates as kube does: no resource twice, every weight exactly 1. */
  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errs = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < resources.size(); i++) {
      ResourceSpec r = resources.get(i);
      String p = path + ".resources[" + i + "]";
      if (!seen.add(r.name())) {
        errs.add(FieldErrors.duplicate(p + ".name", r.name()));
      }
      if (r.weight() != 1) {
        errs.add(FieldErrors.invalid(p + ".weight", r.weight(), "must be 1"));
      }
    }
    return errs;
  }
}
