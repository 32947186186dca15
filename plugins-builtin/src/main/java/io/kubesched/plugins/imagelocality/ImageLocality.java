package io.kubesched.plugins.imagelocality;

import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.ImageStateSummary;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.StateData;
import io.kubesched.framework.StateKey;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import io.kubesched.plugins.helper.LastFragment;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code ImageLocality} is a plugin that favours nodes that already have the pod's container
 * images, weighted by image size and by how widely the image is spread across the cluster.
 *
 * <p>kube-scheduler's ImageLocality has no PreScore; this one adds one that only precomputes the
 * normalised image names and the node count (the result is the same, and Score falls back to
 * computing them when PreScore did not run).
 */
public final class ImageLocality
    implements PreScorePlugin, ScorePlugin, CycleBoundScore, SignPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.IMAGE_LOCALITY;

  static final long MB = 1024L * 1024L;

  /** Below this sum of scaled image sizes a node scores 0. */
  static final long MIN_THRESHOLD = 23 * MB;

  /** The sum of scaled image sizes per container at which a node scores 100. */
  static final long MAX_CONTAINER_THRESHOLD = 1000 * MB;

  static final StateKey<PreScoreState> PRE_SCORE_KEY =
      StateKey.of("PreScore" + NAME, PreScoreState.class);

  private final FrameworkHandle handle;

  /**
   * The pod's normalised images and the cluster size, computed in PreScore.
   *
   * @param images the normalised images of the init and regular containers
   * @param totalNumNodes the number of nodes of the snapshot
   */
  record PreScoreState(String[] images, int totalNumNodes) implements StateData {}

  /** Creates the plugin; {@code handle} gives the snapshot's node count. */
  public ImageLocality(FrameworkHandle handle) {
    this.handle = handle;
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Returns {@code name} with {@code :latest} appended when it has no tag (no {@code :} after the
   * last {@code /}), as kube's {@code normalizedImageName}; the cache keys image states this way.
   */
  public static String normalizedImageName(String name) {
    if (name.lastIndexOf(':') <= name.lastIndexOf('/')) {
      return name + ":latest";
    }
    return name;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
    state.write(PRE_SCORE_KEY, compute(pod));
    return Status.success();
  }

  private PreScoreState compute(PodInfo pod) {
    List<String> images = pod.images();
    String[] normalized = new String[images.size()];
    for (int i = 0; i < normalized.length; i++) {
      normalized[i] = normalizedImageName(images.get(i));
    }
    return new PreScoreState(normalized, handle.snapshot().list().size());
  }

  /**
   * Returns {@code 100 * (clamp(sum, 23MB, 1000MB * containers) - 23MB) / (1000MB * containers -
   * 23MB)}, where {@code sum} adds, per container whose image the node has, the image size times
   * the fraction of nodes that have it.
   */
  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    return scoreWith(preScoreState(state, pod), node);
  }

  /** The Score with the pod's images read once for the cycle. */
  @Override
  public NodeScorer bindScore(CycleState state, PodInfo pod) {
    PreScoreState s = preScoreState(state, pod);
    return new NodeScorer() {
      @Override
      public long score(NodeInfo node) {
        return scoreWith(s, node);
      }

      @Override
      public void scoreAll(
          List<NodeInfo> nodes, int from, int to, NodeColumns columns, int[] rows, long[] out) {
        // a node without images scores as scoreWith scores it, without reaching its map
        long none = calculatePriority(0, s.images().length);
        for (int i = from; i < to; i++) {
          out[i] =
              columns != null && !columns.hasImages(rows[i]) ? none : scoreWith(s, nodes.get(i));
        }
      }
    };
  }

  private PreScoreState preScoreState(CycleState state, PodInfo pod) {
    PreScoreState s = state.read(PRE_SCORE_KEY).orElse(null);
    return s != null ? s : compute(pod);
  }

  private static long scoreWith(PreScoreState s, NodeInfo node) {
    Map<String, ImageStateSummary> states = node.imageStates();
    long sum = 0;
    if (states.isEmpty()) {
      // No lookups (and no hashing) on a node without images: the sum stays 0.
      return calculatePriority(sum, s.images().length);
    }
    for (String image : s.images()) {
      ImageStateSummary st = states.get(image);
      if (st != null) {
        sum += scaledImageScore(st, s.totalNumNodes());
      }
    }
    return calculatePriority(sum, s.images().length);
  }

  static long scaledImageScore(ImageStateSummary state, int totalNumNodes) {
    double spread = (double) state.numNodes() / (double) totalNumNodes;
    return (long) ((double) state.size() * spread);
  }

  static long calculatePriority(long sumScores, int numContainers) {
    long maxThreshold = MAX_CONTAINER_THRESHOLD * numContainers;
    if (sumScores < MIN_THRESHOLD) {
      sumScores = MIN_THRESHOLD;
    } else if (sumScores > maxThreshold) {
      sumScores = maxThreshold;
    }
    return MAX_NODE_SCORE * (sumScores - MIN_THRESHOLD) / (maxThreshold - MIN_THRESHOLD);
  }

  /** Signs the pod by its containers' images. */
  @Override
  public Optional<String> signPod(PodInfo pod) {
    return imageFragments.of(pod.images());
  }

  private final LastFragment<List<String>> imageFragments = new LastFragment<>(String::valueOf);
}
