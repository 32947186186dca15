package io.kubesched.core.runtime;

import io.kubesched.framework.CycleBoundScore;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.SignPlugin;
import io.kubesched.framework.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * Runs a profile's Score plugins for one pod (raw scores per node, in parallel; the reuse of an
 * earlier pod's raw scores under opportunistic batching; NormalizeScore; weights) and computes a
 * pod's scheduling signature from the enabled plugins' {@link SignPlugin} fragments. {@link
 * Framework} times the extension point and hands the work here.
 */
final class ScoreRunner {
  /** Runs {@code work} over {@code [0, n)} on the framework's parallelizer. */
  @FunctionalInterface
  interface Parallel {
    void run(int n, IntConsumer work, BooleanSupplier cancelled);
  }

  private final ProfilePlugins plugins;
  private final PluginCalls calls;
  private final Parallel parallel;

  ScoreRunner(ProfilePlugins plugins, PluginCalls calls, Parallel parallel) {
    this.plugins = plugins;
    this.calls = calls;
    this.parallel = parallel;
  }

  /**
   * Returns {@code pod}'s signature: the fragments of every enabled PreFilter, Filter, PreScore and
   * Score plugin, in order; empty when one of them does not implement {@link SignPlugin} or cannot
   * sign the pod.
   */
  Optional<PodSignature> signPod(PodInfo pod) {
    Signers signers = signers();
    if (signers.plugins() == null) {
      return Optional.empty();
    }
    SignPlugin[] plugins = signers.plugins();
    String[] fragments = new String[plugins.length];
    for (int i = 0; i < plugins.length; i++) {
      Optional<String> fragment;
      try {
        fragment = plugins[i].signPod(pod);
      } catch (RuntimeException e) {
        return Optional.empty();
      }
      if (fragment == null || fragment.isEmpty()) {
        return Optional.empty();
      }
      fragments[i] = fragment.get();
    }
    return Optional.of(new PodSignature(fragments));
  }

  /**
   * The distinct PreFilter, Filter, PreScore and Score plugins in that order (each once), or {@code
   * null} plugins when one of them cannot sign.
   */
  private record Signers(SignPlugin[] plugins) {}

  private volatile Signers signers;

  /** The signing plugins, found once: the profile's plugins do not change. */
  private Signers signers() {
    Signers out = signers;
    if (out != null) {
      return out;
    }
    java.util.Set<Plugin> seen =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    List<SignPlugin> list = new ArrayList<>();
    boolean all = true;
    for (List<? extends Plugin> point :
        List.of(plugins.preFilter(), plugins.filter(), plugins.preScore(), plugins.score())) {
      for (Plugin pl : point) {
        if (seen.add(pl)) {
          if (pl instanceof SignPlugin sp) {
            list.add(sp);
          } else {
            all = false;
          }
        }
      }
    }
    out = new Signers(all ? list.toArray(new SignPlugin[0]) : null);
    signers = out;
    return out;
  }

  /**
   * Returns the Score plugins not skipped in this cycle (their PreScore returned Skip), in order.
   */
  private List<ScorePlugin> activePlugins(CycleState state) {
    Set<String> skipped = state.skipScorePlugins();
    List<ScorePlugin> all = plugins.score();
    List<ScorePlugin> active = new ArrayList<>(all.size());
    for (int i = 0; i < all.size(); i++) {
      ScorePlugin pl = all.get(i);
      if (!skipped.contains(pl.name())) {
        active.add(pl);
      }
    }
    return active;
  }

  /**
   * Binds each active Score plugin that has the {@link CycleBoundScore} face to {@code pod} and
   * {@code state}; {@code null} for the others and for a binding that threw (called unbound, per
   * node, so the error surfaces as before).
   */
  private static CycleBoundScore.NodeScorer[] bindScorers(
      CycleState state, PodInfo pod, List<ScorePlugin> active) {
    CycleBoundScore.NodeScorer[] out = new CycleBoundScore.NodeScorer[active.size()];
    for (int p = 0; p < out.length; p++) {
      if (active.get(p) instanceof CycleBoundScore b) {
        try {
          out[p] = b.bindScore(state, pod);
        } catch (RuntimeException e) {
          out[p] = null;
        }
      }
    }
    return out;
  }

  // The raw score arrays of the last cycle on each thread, reused when the next has as many nodes:
  // fresh arrays of thousands of nodes per pod cost more in cold memory than the scoring itself.
  // Every entry is written before it is read (each node is scored or the cycle fails), and
  // WeightedScores copies what it keeps.
  private final ThreadLocal<long[][]> scratch = ThreadLocal.withInitial(() -> new long[0][]);

  private long[][] scratch(int plugins, int n) {
    long[][] arrays = scratch.get();
    if (arrays.length < plugins) {
      arrays = java.util.Arrays.copyOf(arrays, plugins);
      scratch.set(arrays);
    }
    for (int p = 0; p < plugins; p++) {
      if (arrays[p] == null || arrays[p].length != n) {
        arrays[p] = new long[n];
      }
    }
    return arrays;
  }

  /** The nodes a Score piece scores at once when no plugin metrics are recorded. */
  private static final int SCORE_SLICE = 64;

  /**
   * Scores {@code nodes[from..to)} with one plugin: a bound plugin in one {@link
   * CycleBoundScore.NodeScorer#scoreAll} call (node by node again when that throws, so the error
   * surfaces as it would have), another node by node.
   *
   * @return whether every node got a score
   */
  private boolean scoreSlice(
      ScorePlugin pl,
      CycleBoundScore.NodeScorer scorer,
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      int from,
      int to,
      NodeColumns columns,
      int[] rows,
      NodeScores out,
      Consumer<Status> onThrown) {
    long[] scores = out.array();
    if (scorer != null) {
      try {
        scorer.scoreAll(nodes, from, to, columns, rows, scores);
        return true;
      } catch (RuntimeException e) {
        // fall through: node by node
      }
    }
    for (int i = from; i < to; i++) {
      NodeInfo node = nodes.get(i);
      boolean scored =
          scorer != null
              ? calls.score(pl, scorer, state, node, scores, i, onThrown)
              : calls.score(pl, state, pod, node, scores, i, onThrown);
      if (!scored) {
        return false;
      }
    }
    return true;
  }

  Framework.ScoreOutcome score(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      RawScores previous,
      int[] rescore,
      RawScores keep,
      NodeColumns columns,
      int[] rows) {
    List<ScorePlugin> active = activePlugins(state);
    int n = nodes.size();
    CycleBoundScore.NodeScorer[] bound = bindScorers(state, pod, active);
    if (previous != null
        && rescore != null
        && previous.matches(active, n)
        && previous.weighed()
        && keep != null) {
      // opportunistic batching's later pods: apart, so that the full path below stays cold
      Framework.ScoreOutcome updated =
          rescoreWeighed(state, pod, nodes, previous, rescore, keep, active, bound);
      if (updated != null) {
        return updated;
      }
      // a normalised score out of range: weigh everything below, which reports it as kube does
    }
    NodeScores[] perPlugin = new NodeScores[active.size()];
    long[][] arrays = scratch(active.size(), n);
    for (int p = 0; p < perPlugin.length; p++) {
      perPlugin[p] = NodeScores.wrap(nodes, arrays[p]);
    }
    if (previous != null && rescore != null && previous.matches(active, n)) {
      for (int p = 0; p < perPlugin.length; p++) {
        System.arraycopy(previous.scores[p], 0, perPlugin[p].array(), 0, n);
      }
      for (int index : rescore) {
        NodeInfo node = nodes.get(index);
        for (int p = 0; p < active.size(); p++) {
          Status[] thrown = new Status[1];
          Consumer<Status> onThrown = s -> thrown[0] = s;
          boolean scored =
              bound[p] != null
                  ? calls.score(
                      active.get(p), bound[p], state, node, perPlugin[p].array(), index, onThrown)
                  : calls.score(
                      active.get(p), state, pod, node, perPlugin[p].array(), index, onThrown);
          if (!scored) {
            return scoreFailed(thrown[0]);
          }
        }
      }
    } else if (!active.isEmpty()) {
      AtomicReference<String> error = new AtomicReference<>();
      AtomicBoolean cancelled = new AtomicBoolean();
      Consumer<Status> onThrown =
          s -> {
            if (error.compareAndSet(
                null,
                "plugin \"" + s.plugin() + "\" failed with: " + PluginCalls.errorMessage(s))) {
              cancelled.set(true);
            }
          };
      if (state.recordPluginMetrics()) {
        // node by node, so that every call is timed as kube times it
        parallel.run(
            n,
            index -> {
              NodeInfo node = nodes.get(index);
              for (int p = 0; p < active.size(); p++) {
                ScorePlugin pl = active.get(p);
                boolean scored =
                    bound[p] != null
                        ? calls.score(
                            pl, bound[p], state, node, perPlugin[p].array(), index, onThrown)
                        : calls.score(pl, state, pod, node, perPlugin[p].array(), index, onThrown);
                if (!scored) {
                  return;
                }
              }
            },
            cancelled::get);
      } else {
        // a slice of nodes at a time, plugin after plugin, each bound plugin in one call
        int slices = (n + SCORE_SLICE - 1) / SCORE_SLICE;
        parallel.run(
            slices,
            slice -> {
              int from = slice * SCORE_SLICE;
              int to = Math.min(n, from + SCORE_SLICE);
              for (int p = 0; p < active.size(); p++) {
                if (!scoreSlice(
                    active.get(p),
                    bound[p],
                    state,
                    pod,
                    nodes,
                    from,
                    to,
                    columns,
                    rows,
                    perPlugin[p],
                    onThrown)) {
                  return;
                }
              }
            },
            cancelled::get);
      }
      if (error.get() != null) {
        return new Framework.ScoreOutcome(
            List.of(), Status.error("running Score plugins: " + error.get()));
      }
    }
    if (keep != null) {
      long[][] raw = new long[perPlugin.length][];
      for (int p = 0; p < perPlugin.length; p++) {
        raw[p] = perPlugin[p].array().clone();
      }
      keep.plugins = List.copyOf(active);
      keep.scores = raw;
      keep.packed = null;
    }

    for (int p = 0; p < active.size(); p++) {
      ScorePlugin pl = active.get(p);
      if (!(pl instanceof ScoreExtensions)) {
        continue;
      }
      Status s =
          calls.status(
              "ScoreExtensionNormalize", pl, state, pod, perPlugin[p], PluginCalls.NORMALIZE);
      if (!s.isSuccess()) {
        return normaliseFailed(pl, s);
      }
    }

    Framework.ScoreOutcome out =
        WeightedScores.weigh(active, perPlugin, nodes, plugins.scoreWeights());
    if (keep != null && out.status().isSuccess() && out.scores() instanceof ScoreTable table) {
      keep.weighed(table, n);
    }
    return out;
  }

  /**
   * Opportunistic batching's cycle on the batch's weighed scores: scores the nodes at {@code
   * rescore} again and updates only what that changes. A plugin without NormalizeScore changes
   * those nodes' scores only; one with NormalizeScore is normalised again over every node when one
   * of its raw scores changed, and otherwise keeps its normalised scores (NormalizeScore sees the
   * same raw scores for a pod of the same signature, so it gives the same result). The totals of
   * the nodes whose scores changed are summed again.
   *
   * @return the weighed scores (and {@code keep} filled, {@code previous} consumed), or {@code
   *     null} when a normalised score is out of range (the caller weighs everything to report it)
   */
  private Framework.ScoreOutcome rescoreWeighed(
      CycleState state,
      PodInfo pod,
      List<NodeInfo> nodes,
      RawScores previous,
      int[] rescore,
      RawScores keep,
      List<ScorePlugin> active,
      CycleBoundScore.NodeScorer[] bound) {
    int n = nodes.size();
    int plugins = active.size();
    int r = rescore.length;
    // plugin p's raw score of rescored node k at p * r + k
    long[] fresh = new long[plugins * r];
    Status[] thrown = new Status[1];
    Consumer<Status> onThrown = s -> thrown[0] = s;
    for (int k = 0; k < r; k++) {
      NodeInfo node = nodes.get(rescore[k]);
      for (int p = 0; p < plugins; p++) {
        boolean scored =
            bound[p] != null
                ? calls.score(active.get(p), bound[p], state, node, fresh, p * r + k, onThrown)
                : calls.score(active.get(p), state, pod, node, fresh, p * r + k, onThrown);
        if (!scored) {
          return scoreFailed(thrown[0]);
        }
      }
    }
    long[] weights = previous.weights;
    // each rescored node's new packed scores (plugin p's of node k at k * plugins + p); the
    // plugins normalised again over every node
    byte[] rows = new byte[r * plugins];
    for (int k = 0; k < r; k++) {
      for (int p = 0; p < plugins; p++) {
        rows[k * plugins + p] = (byte) previous.score(p, rescore[k]);
      }
    }
    long[][] normalisedAgain = null;
    for (int p = 0; p < plugins; p++) {
      ScorePlugin pl = active.get(p);
      long[] raw = previous.scores[p];
      boolean changed = false;
      for (int k = 0; k < r; k++) {
        changed |= raw[rescore[k]] != fresh[p * r + k];
        raw[rescore[k]] = fresh[p * r + k];
      }
      if (!(pl instanceof ScoreExtensions)) {
        for (int k = 0; k < r; k++) {
          long score = fresh[p * r + k];
          if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
            return null;
          }
          rows[k * plugins + p] = (byte) score;
        }
      } else if (changed) {
        long[] normalised = raw.clone();
        Status s =
            calls.status(
                "ScoreExtensionNormalize",
                pl,
                state,
                pod,
                NodeScores.wrap(nodes, normalised),
                PluginCalls.NORMALIZE);
        if (!s.isSuccess()) {
          return normaliseFailed(pl, s);
        }
        for (int i = 0; i < n; i++) {
          long score = normalised[i];
          if (score > ScorePlugin.MAX_NODE_SCORE || score < ScorePlugin.MIN_NODE_SCORE) {
            return null;
          }
        }
        if (normalisedAgain == null) {
          normalisedAgain = new long[plugins][];
        }
        normalisedAgain[p] = normalised;
      }
    }
    for (int k = 0; k < r; k++) {
      long total = 0;
      for (int p = 0; p < plugins; p++) {
        total += rows[k * plugins + p] * weights[p];
      }
      previous.change(rescore[k], rows, k * plugins, total);
    }
    if (normalisedAgain != null) {
      // every node's scores of those plugins changed: a new base with them
      previous.fold();
      byte[] packed = previous.packed.clone();
      long[] totals = new long[n];
      for (int p = 0; p < plugins; p++) {
        int base = p * n;
        if (normalisedAgain[p] != null) {
          for (int i = 0; i < n; i++) {
            packed[base + i] = (byte) normalisedAgain[p][i];
          }
        }
        for (int i = 0; i < n; i++) {
          totals[i] += packed[base + i] * weights[p];
        }
      }
      previous.packed = packed;
      previous.totals = totals;
    } else if (previous.foldDue(n)) {
      previous.fold();
    }
    keep.takeWeighed(previous);
    NodeInfo[] array =
        nodes instanceof FeasibleNodes f ? f.array() : nodes.toArray(new NodeInfo[0]);
    return new Framework.ScoreOutcome(keep.table(array), Status.success());
  }

  /** The outcome of a Score plugin that failed ({@code thrown}), in kube's words. */
  private static Framework.ScoreOutcome scoreFailed(Status thrown) {
    return new Framework.ScoreOutcome(
        List.of(),
        Status.error(
            "running Score plugins: plugin \""
                + thrown.plugin()
                + "\" failed with: "
                + PluginCalls.errorMessage(thrown)));
  }

  /** The outcome of a NormalizeScore that failed with {@code s}, in kube's words. */
  private static Framework.ScoreOutcome normaliseFailed(ScorePlugin pl, Status s) {
    return new Framework.ScoreOutcome(
        List.of(),
        Status.error(
            "running Normalize on Score plugins: plugin \""
                + pl.name()
                + "\" failed with: "
                + PluginCalls.errorMessage(s)));
  }
}
