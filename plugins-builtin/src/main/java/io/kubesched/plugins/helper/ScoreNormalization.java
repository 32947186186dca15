package io.kubesched.plugins.helper;

import io.kubesched.framework.NodeScores;

/** Score normalisations shared by the default plugins (kube's {@code plugins/helper}). */
public final class ScoreNormalization {
  private ScoreNormalization() {}

  /**
   * Scales {@code scores} to [0, {@code maxPriority}] relative to the highest score, as kube's
   * {@code DefaultNormalizeScore}: {@code maxPriority * score / max}, reversed ({@code maxPriority
   * - that}) when {@code reverse}. When every score is 0 they stay 0, or all become {@code
   * maxPriority} when reversed.
   */
  public static void defaultNormalizeScore(long maxPriority, boolean reverse, NodeScores scores) {
    long[] s = scores.array();
    long max = 0;
    for (long v : s) {
      if (v > max) {
        max = v;
      }
    }
    if (max == 0) {
      if (reverse) {
        for (int i = 0; i < s.length; i++) {
          s[i] = maxPriority;
        }
      }
      return;
    }
    for (int i = 0; i < s.length; i++) {
      long v = maxPriority * s[i] / max;
      s[i] = reverse ? maxPriority - v : v;
    }
  }
}
