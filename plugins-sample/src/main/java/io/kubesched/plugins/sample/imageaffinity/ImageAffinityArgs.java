package io.kubesched.plugins.sample.imageaffinity;

import io.kubernetes.client.openapi.models.V1LabelSelector;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.PluginArgs;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of {@link ImageAffinity}.
 *
 * @param podSelector which pods the plugin acts on (e.g. {@code matchLabels: {role: image-build}});
 *     {@code null} means every pod
 * @param matchMode {@code Repository}: an image matches a node image of the same repository with
 *     any tag or digest; {@code Exact}: the same reference (with {@code :latest} implied)
 * @param requireImage when {@code true}, Filter also rejects nodes that hold none of the pod's
 *     images
 */
public record ImageAffinityArgs(V1LabelSelector podSelector, String matchMode, boolean requireImage)
    implements PluginArgs {
  /** Repository matching. */
  public static final String REPOSITORY = "Repository";

  /** Exact matching. */
  public static final String EXACT = "Exact";

  /** Returns the default arguments: every pod, repository matching, scoring only. */
  public static ImageAffinityArgs defaults() {
    return new ImageAffinityArgs(null, REPOSITORY, false);
  }

  @Override
  public List<FieldError> validate(String path) {
    List<FieldError> errors = new ArrayList<>();
    if (!REPOSITORY.equals(matchMode) && !EXACT.equals(matchMode)) {
      errors.add(
          new FieldError(
              path + ".matchMode", "must be Repository or Exact, got \"" + matchMode + "\""));
    }
    try {
      LabelSelector.compile(podSelector);
    } catch (IllegalArgumentException e) {
      errors.add(new FieldError(path + ".podSelector", e.getMessage()));
    }
    return errors;
  }
}
