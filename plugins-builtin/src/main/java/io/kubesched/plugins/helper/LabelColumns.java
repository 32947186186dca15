package io.kubesched.plugins.helper;

import io.kubesched.framework.NodeColumns;
import org.jspecify.annotations.Nullable;

/** Several label keys' columns of the snapshot at once ({@link NodeColumns#labelValues}). */
public final class LabelColumns {
  private LabelColumns() {}

  /**
   * Returns the column of each of {@code keys} ({@code out[j][row]} is row {@code row}'s value of
   * {@code keys[j]}), or {@code null} when {@code columns} is {@code null} or keeps no column for
   * one of the keys (then read the nodes' labels).
   */
  public static String[] @Nullable [] of(@Nullable NodeColumns columns, String[] keys) {
    if (columns == null) {
      return null;
    }
    String[][] out = new String[keys.length][];
    for (int j = 0; j < keys.length; j++) {
      out[j] = columns.labelValues(keys[j]);
      if (out[j] == null) {
        return null;
      }
    }
    return out;
  }
}
