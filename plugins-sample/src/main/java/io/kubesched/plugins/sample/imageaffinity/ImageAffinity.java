package io.kubesched.plugins.sample.imageaffinity;

import io.kubernetes.client.openapi.models.V1ContainerImage;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.LabelSelector;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code ImageAffinity} is a plugin that places selected pods (image-build pods, typically) on
 * nodes that already hold their images, so that pulls and layer builds are fast.
 *
 * <p>Score: 100 × (the pod's distinct images found on the node) / (its distinct images), for pods
 * the {@code podSelector} matches; 0 for other pods (Skip). Filter (only with {@code
 * requireImage}): a selected pod is rejected from nodes that hold none of its images with {@value
 * #REASON_NO_IMAGE}. Images are read from the node's {@code status.images}.
 */
public final class ImageAffinity
    implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin {
  /** The plugin name. */
  public static final String NAME = "ImageAffinity";

  /** The Filter reason. */
  public static final String REASON_NO_IMAGE = "node(s) didn't have the pod's images";

  private static final StateKey<Wanted> KEY = StateKey.of("PreScore" + NAME, Wanted.class);

  private final LabelSelector selector;
  private final boolean repository;
  private final boolean requireImage;

  /** Creates the plugin with {@code args}. */
  public ImageAffinity(ImageAffinityArgs args) {
    this.selector =
        args.podSelector() == null
            ? LabelSelector.everything()
            : LabelSelector.compile(args.podSelector());
    this.repository = ImageAffinityArgs.REPOSITORY.equals(args.matchMode());
    this.requireImage = args.requireImage();
  }

  @Override
  public String name() {
    return NAME;
  }

  private record Wanted(Set<String> images) implements StateData {}

  private Wanted wanted(PodInfo pod) {
    Set<String> images = new LinkedHashSet<>();
    for (String image : pod.images()) {
      if (!image.isEmpty()) {
        images.add(key(image));
      }
    }
    return new Wanted(Set.copyOf(images));
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (!requireImage || !selector.matches(pod.labels())) {
      return PreFilterResult.skip();
    }
    Wanted w = wanted(pod);
    if (w.images().isEmpty()) {
      return PreFilterResult.skip();
    }
    state.write(KEY, w);
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    Wanted w = state.read(KEY).orElse(null);
    if (w == null || matches(w, node.node()) > 0) {
      return Status.success();
    }
    return Status.unresolvable(REASON_NO_IMAGE);
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    if (!selector.matches(pod.labels())) {
      return Status.skip();
    }
    Wanted w = wanted(pod);
    if (w.images().isEmpty()) {
      return Status.skip();
    }
    state.write(KEY, w);
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    Wanted w = state.get(KEY);
    return MAX_NODE_SCORE * matches(w, node.node()) / w.images().size();
  }

  private int matches(Wanted w, V1Node node) {
    if (node == null || node.getStatus() == null || node.getStatus().getImages() == null) {
      return 0;
    }
    Set<String> found = new HashSet<>();
    for (V1ContainerImage image : node.getStatus().getImages()) {
      if (image.getNames() == null) {
        continue;
      }
      for (String name : image.getNames()) {
        String k = key(name);
        if (w.images().contains(k)) {
          found.add(k);
        }
      }
    }
    return found.size();
  }

  private String key(String image) {
    return repository ? repositoryOf(image) : normalized(image);
  }

  /** Returns the repository of an image reference: without tag and digest. */
  static String repositoryOf(String image) {
    int at = image.indexOf('@');
    String s = at >= 0 ? image.substring(0, at) : image;
    int colon = s.lastIndexOf(':');
    if (colon > s.lastIndexOf('/')) {
      s = s.substring(0, colon);
    }
    return s;
  }

  /** Returns the reference with {@code :latest} added when it has no tag or digest. */
  static String normalized(String image) {
    if (image.indexOf('@') >= 0) {
      return image;
    }
    int colon = image.lastIndexOf(':');
    return colon > image.lastIndexOf('/') ? image : image + ":latest";
  }
}
