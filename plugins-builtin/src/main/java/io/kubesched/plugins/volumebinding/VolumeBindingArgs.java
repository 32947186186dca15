package io.kubesched.plugins.volumebinding;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.plugins.noderesources.UtilizationShapePoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link VolumeBinding} ({@code VolumeBindingArgs}).
 *
 * @param bindTimeoutSeconds how long PreBind waits for the bindings to complete; default 600
 * @param shape the storage-capacity scoring function (StorageCapacityScoring gate); empty for the
 *     default ({@code 0→0, 100→10}: fuller volumes score higher)
 */
public record VolumeBindingArgs(Long bindTimeoutSeconds, List<UtilizationShapePoint> shape)
    implements PluginArgs {
  /** kube's default bind timeout. */
  public static final long DEFAULT_BIND_TIMEOUT_SECONDS = 600;

  /** The default scoring shape when StorageCapacityScoring is on. */
  public static final List<UtilizationShapePoint> DEFAULT_SHAPE =
      List.of(new UtilizationShapePoint(0, 0), new UtilizationShapePoint(100, 10));

  /** Applies kube's defaults. */
  public VolumeBindingArgs {
    bindTimeoutSeconds =
        bindTimeoutSeconds == null ? DEFAULT_BIND_TIMEOUT_SECONDS : bindTimeoutSeconds;
    shape = shape == null ? List.of() : List.copyOf(shape);
  }

  /** Returns the default arguments. */
  public static VolumeBindingArgs defaults() {
    return new VolumeBindingArgs(DEFAULT_BIND_TIMEOUT_SECONDS, List.of());
  }

  /** Validates as kube's {@code ValidateVolumeBindingArgs} does. */
  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errs = new ArrayList<>();
    if (bindTimeoutSeconds < 0) {
      errs.add(
          FieldErrors.invalid(
              path + ".bindTimeoutSeconds",
              bindTimeoutSeconds,
              "invalid BindTimeoutSeconds, should not be a negative value"));
    }
    for (int i = 0; i < shape.size(); i++) {
      UtilizationShapePoint p = shape.get(i);
      String at = path + ".shape[" + i + "]";
      if (p.utilization() < 0 || p.utilization() > 100) {
        errs.add(
            FieldErrors.invalid(
                at + ".utilization", p.utilization(), "not in valid range [0, 100]"));
      } else if (i > 0 && p.utilization() <= shape.get(i - 1).utilization()) {
        errs.add(
            FieldErrors.invalid(
                at + ".utilization", p.utilization(), "should be greater than prior element"));
      }
      if (p.score() < 0 || p.score() > 10) {
        errs.add(FieldErrors.invalid(at + ".score", p.score(), "not in valid range [0, 10]"));
      }
    }
    return errs;
  }
}
