package io.kubesched.plugins.noderesources;

import io.kubesched.framework.FieldError;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link Fit} ({@code NodeResourcesFitArgs}).
 *
 * @param ignoredResources extended resources that Filter ignores
 * @param ignoredResourceGroups resource-name prefixes (before the {@code /}) whose extended
 *     resources Filter ignores
 * @param scoringStrategy how Score ranks nodes; {@code null} means {@code LeastAllocated} over cpu
 *     and memory
 */
public record NodeResourcesFitArgs(
    List<String> ignoredResources,
    List<String> ignoredResourceGroups,
    ScoringStrategy scoringStrategy)
    implements PluginArgs {
  static final List<String> SUPPORTED_TYPES =
      List.of(
          ScoringStrategy.LEAST_ALLOCATED,
          ScoringStrategy.MOST_ALLOCATED,
          ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO);

  /** Applies kube's defaults and copies the lists. */
  public NodeResourcesFitArgs {
    ignoredResources = ignoredResources == null ? List.of() : List.copyOf(ignoredResources);
    ignoredResourceGroups =
        ignoredResourceGroups == null ? List.of() : List.copyOf(ignoredResourceGroups);
    scoringStrategy = scoringStrategy == null ? ScoringStrategy.defaults() : scoringStrategy;
  }

  /** Returns the default arguments. */
  public static NodeResourcesFitArgs defaults() {
    return new NodeResourcesFitArgs(List.of(), List.of(), ScoringStrategy.defaults());
  }

  /**
   * Validates as kube's {@code ValidateNodeResourcesFitArgs}: ignored resources are label names,
   * resource groups contain no {@code /}, the strategy type is supported, weights are in (0, 100],
   * and a shape has sorted utilisations in [0, 100] and scores in [0, 10] (reported, as in kube,
   * under {@code scoringStrategy.shape}).
   */
  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errs = new ArrayList<>();
    for (int i = 0; i < ignoredResources.size(); i++) {
      errs.addAll(
          QualifiedNames.validateLabelName(
              ignoredResources.get(i), path + ".ignoredResources[" + i + "]"));
    }
    for (int i = 0; i < ignoredResourceGroups.size(); i++) {
      String group = ignoredResourceGroups.get(i);
      String p = path + ".ignoredResourceGroups[" + i + "]";
      if (group.contains("/")) {
        errs.add(FieldErrors.invalid(p, group, "resource group name can't contain '/'"));
      }
      errs.addAll(QualifiedNames.validateLabelName(group, p));
    }
    String strategyPath = path + ".scoringStrategy";
    if (!SUPPORTED_TYPES.contains(scoringStrategy.type())) {
      errs.add(
          FieldErrors.notSupported(
              strategyPath + ".type", scoringStrategy.type(), SUPPORTED_TYPES));
    }
    errs.addAll(validateResources(scoringStrategy.resources(), strategyPath + ".resources"));
    RequestedToCapacityRatioParam rtcr = scoringStrategy.requestedToCapacityRatio();
    if (rtcr != null) {
      errs.addAll(validateFunctionShape(rtcr.shape(), strategyPath + ".shape"));
    } else if (ScoringStrategy.REQUESTED_TO_CAPACITY_RATIO.equals(scoringStrategy.type())) {
      errs.add(
          FieldErrors.required(
              strategyPath + ".requestedToCapacityRatio",
              "required for the RequestedToCapacityRatio scoring strategy"));
    }
    return errs;
  }

  static List<FieldError> validateResources(List<ResourceSpec> resources, String path) {
    List<FieldError> errs = new ArrayList<>();
    for (int i = 0; i < resources.size(); i++) {
      ResourceSpec r = resources.get(i);
      if (r.weight() <= 0 || r.weight() > 100) {
        errs.add(
            FieldErrors.invalid(
                path + "[" + i + "].weight",
                r.weight(),
                "resource weight of " + r.name() + " not in valid range (0, 100]"));
      }
    }
    return errs;
  }

  static List<FieldError> validateFunctionShape(List<UtilizationShapePoint> shape, String path) {
    List<FieldError> errs = new ArrayList<>();
    if (shape.isEmpty()) {
      errs.add(FieldErrors.required(path, "at least one point must be specified"));
      return errs;
    }
    for (int i = 1; i < shape.size(); i++) {
      if (shape.get(i - 1).utilization() >= shape.get(i).utilization()) {
        errs.add(
            FieldErrors.invalid(
                path + "[" + i + "].utilization",
                shape.get(i).utilization(),
                "values must be sorted in increasing order"));
        break;
      }
    }
    for (int i = 0; i < shape.size(); i++) {
      UtilizationShapePoint p = shape.get(i);
      if (p.utilization() < 0 || p.utilization() > 100) {
        errs.add(
            FieldErrors.invalid(
                path + "[" + i + "].utilization", p.utilization(), "not in valid range [0, 100]"));
      }
      if (p.score() < 0 || p.score() > 10) {
        errs.add(
            FieldErrors.invalid(
                path + "[" + i + "].score", p.score(), "not in valid range [0, 10]"));
      }
    }
    return errs;
  }
}
