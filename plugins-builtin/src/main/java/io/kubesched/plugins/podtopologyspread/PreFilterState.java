package io.kubesched.plugins.podtopologyspread;

import io.kubesched.framework.StateData;

/**
 * What PreFilter computes for Filter (kube's {@code preFilterState}): per hard constraint, the
 * number of matching pods by topology value over the eligible nodes and the two critical paths
 * (the domains with the fewest matching pods).
 *
 * <p>AddPod and RemovePod change the counts; the framework calls them only on a {@link #copy()}
 * used by a single thread, so no lock is needed.
 */
final class PreFilterState implements StateData {
  final SpreadConstraint[] constraints;
  /** Whether the incoming pod matches each constraint's selector (it would count itself). */
  final boolean[] selfMatch;
  final ValueCounts[] counts;
  final CriticalPaths[] paths;

  PreFilterState(
      SpreadConstraint[] constraints,
      boolean[] selfMatch,
      ValueCounts[] counts,
      CriticalPaths[] paths) {
    this.constraints = constraints;
    this.selfMatch = selfMatch;
    this.counts = counts;
    this.paths = paths;
  }

  /** Returns the global minimum of constraint {@code i}, 0 when there are too few domains. */
  int minMatchNum(int i) {
    if (counts[i].size() < constraints[i].minDomains()) {
      return 0;
    }
    return paths[i].minNum();
  }

  @Override
  public PreFilterState copy() {
    ValueCounts[] c = new ValueCounts[counts.length];
    CriticalPaths[] p = new CriticalPaths[paths.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = counts[i].copy();
      p[i] = paths[i].copy();
    }
    return new PreFilterState(constraints, selfMatch, c, p);
  }

  /**
   * The two domains with the fewest matching pods, updated incrementally as kube does: {@code
   * num[0]} is always the minimum, {@code num[1]} is at least {@code num[0]} but not necessarily
   * the second smallest.
   */
  static final class CriticalPaths {
    private final String[] values = {"", ""};
    private final int[] nums = {Integer.MAX_VALUE, Integer.MAX_VALUE};

    int minNum() {
      return nums[0];
    }

    String minValue() {
      return values[0];
    }

    CriticalPaths copy() {
      CriticalPaths c = new CriticalPaths();
      c.values[0] = values[0];
      c.values[1] = values[1];
      c.nums[0] = nums[0];
      c.nums[1] = nums[1];
      return c;
    }

    void update(String value, int num) {
      int i = value.equals(values[0]) ? 0 : value.equals(values[1]) ? 1 : -1;
      if (i >= 0) {
        nums[i] = num;
        if (nums[0] > nums[1]) {
          String v = values[0];
          values[0] = values[1];
          values[1] = v;
          int n = nums[0];
          nums[0] = nums[1];
          nums[1] = n;
        }
      } else if (num < nums[0]) {
        values[1] = values[0];
        nums[1] = nums[0];
        values[0] = value;
        nums[0] = num;
      } else if (num < nums[1]) {
        values[1] = value;
        nums[1] = num;
      }
    }

    @Override
    public String toString() {
      return "[{" + values[0] + " " + nums[0] + "} {" + values[1] + " " + nums[1] + "}]";
    }
  }
}
