package io.kubesched.preemption;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * Go's {@code sort.Slice} (pattern-defeating quicksort, Go 1.24), reproduced step by step so that
 * elements that compare equal end up in the same order as in kube-scheduler. Go's sort is not
 * stable: up to 12 elements it is an insertion sort (stable for a consistent order), beyond that
 * equal elements may be reordered in ways a stable sort would not.
 *
 * <p>The {@code less} predicate is called exactly as Go calls it, including for predicates that are
 * not a strict order (kube's {@code MoreImportantPod} with pods that have not started).
 */
public final class GoSort {
  private static final int MAX_INSERTION = 12;
  private static final int UNKNOWN_HINT = 0;
  private static final int INCREASING_HINT = 1;
  private static final int DECREASING_HINT = 2;

  /** The shifts of the xorshift generator behind {@code breakPatterns} since Go 1.24. */
  static final int[] GO_1_24_XORSHIFT = {13, 7, 17};

  private final Object[] data;
  private final BiPredicate<Object, Object> less;
  private final int[] xorshift;

  @SuppressWarnings("unchecked")
  private <T> GoSort(Object[] data, BiPredicate<? super T, ? super T> less, int[] xorshift) {
    this.data = data;
    this.less = (a, b) -> less.test((T) a, (T) b);
    this.xorshift = xorshift;
  }

  /**
   * Sorts {@code list} in place as Go's {@code sort.Slice(list, less)} does.
   *
   * @param list a modifiable list
   * @param less whether the first element goes before the second
   */
  public static <T> void slice(List<T> list, BiPredicate<? super T, ? super T> less) {
    slice(list, less, GO_1_24_XORSHIFT);
  }

  /** Sorts with the given xorshift shifts (older Go releases used other ones). */
  @SuppressWarnings("unchecked")
  static <T> void slice(List<T> list, BiPredicate<? super T, ? super T> less, int[] xorshift) {
    Object[] a = list.toArray();
    new GoSort(a, less, xorshift).pdqsort(0, a.length, bitsLen(a.length));
    for (int i = 0; i < a.length; i++) {
      list.set(i, (T) a[i]);
    }
  }

  private static int bitsLen(long x) {
    return 64 - Long.numberOfLeadingZeros(x);
  }

  private boolean less(int i, int j) {
    return less.test(data[i], data[j]);
  }

  private void swap(int i, int j) {
    Object t = data[i];
    data[i] = data[j];
    data[j] = t;
  }

  private void insertionSort(int a, int b) {
    for (int i = a + 1; i < b; i++) {
      for (int j = i; j > a && less(j, j - 1); j--) {
        swap(j, j - 1);
      }
    }
  }

  private void siftDown(int lo, int hi, int first) {
    int root = lo;
    while (true) {
      int child = 2 * root + 1;
      if (child >= hi) {
        return;
      }
      if (child + 1 < hi && less(first + child, first + child + 1)) {
        child++;
      }
      if (!less(first + root, first + child)) {
        return;
      }
      swap(first + root, first + child);
      root = child;
    }
  }

  private void heapSort(int a, int b) {
    int first = a;
    int lo = 0;
    int hi = b - a;
    for (int i = (hi - 1) / 2; i >= 0; i--) {
      siftDown(i, hi, first);
    }
    for (int i = hi - 1; i >= 0; i--) {
      swap(first, first + i);
      siftDown(lo, i, first);
    }
  }

  private void pdqsort(int a, int b, int limit) {
    boolean wasBalanced = true;
    boolean wasPartitioned = true;
    while (true) {
      int length = b - a;
      if (length <= MAX_INSERTION) {
        insertionSort(a, b);
        return;
      }
      if (limit == 0) {
        heapSort(a, b);
        return;
      }
      if (!wasBalanced) {
        breakPatterns(a, b);
        limit--;
      }
      int[] pivotHint = choosePivot(a, b);
      int pivot = pivotHint[0];
      int hint = pivotHint[1];
      if (hint == DECREASING_HINT) {
        reverseRange(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = INCREASING_HINT;
      }
      if (wasBalanced && wasPartitioned && hint == INCREASING_HINT) {
        if (partialInsertionSort(a, b)) {
          return;
        }
      }
      if (a > 0 && !less(a - 1, pivot)) {
        a = partitionEqual(a, b, pivot);
        continue;
      }
      int[] midPartitioned = partition(a, b, pivot);
      int mid = midPartitioned[0];
      wasPartitioned = midPartitioned[1] != 0;
      int leftLen = mid - a;
      int rightLen = b - mid;
      int balanceThreshold = length / 8;
      if (leftLen < rightLen) {
        wasBalanced = leftLen >= balanceThreshold;
        pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        wasBalanced = rightLen >= balanceThreshold;
        pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }

  private int[] partition(int a, int b, int pivot) {
    swap(a, pivot);
    int i = a + 1;
    int j = b - 1;
    while (i <= j && less(i, a)) {
      i++;
    }
    while (i <= j && !less(j, a)) {
      j--;
    }
    if (i > j) {
      swap(j, a);
      return new int[] {j, 1};
    }
    swap(i, j);
    i++;
    j--;
    while (true) {
      while (i <= j && less(i, a)) {
        i++;
      }
      while (i <= j && !less(j, a)) {
        j--;
      }
      if (i > j) {
        break;
      }
      swap(i, j);
      i++;
      j--;
    }
    swap(j, a);
    return new int[] {j, 0};
  }

  private int partitionEqual(int a, int b, int pivot) {
    swap(a, pivot);
    int i = a + 1;
    int j = b - 1;
    while (true) {
      while (i <= j && !less(a, i)) {
        i++;
      }
      while (i <= j && less(a, j)) {
        j--;
      }
      if (i > j) {
        break;
      }
      swap(i, j);
      i++;
      j--;
    }
    return i;
  }

  private boolean partialInsertionSort(int a, int b) {
    final int maxSteps = 5;
    final int shortestShifting = 50;
    int i = a + 1;
    for (int step = 0; step < maxSteps; step++) {
      while (i < b && !less(i, i - 1)) {
        i++;
      }
      if (i == b) {
        return true;
      }
      if (b - a < shortestShifting) {
        return false;
      }
      swap(i, i - 1);
      if (i - a >= 2) {
        for (int j = i - 1; j >= 1; j--) {
          if (!less(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
      if (b - i >= 2) {
        for (int j = i + 1; j < b; j++) {
          if (!less(j, j - 1)) {
            break;
          }
          swap(j, j - 1);
        }
      }
    }
    return false;
  }

  private void breakPatterns(int a, int b) {
    int length = b - a;
    if (length >= 8) {
      long random = length;
      long modulus = 1L << bitsLen(length);
      for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; idx++) {
        random ^= random << xorshift[0];
        random ^= random >>> xorshift[1];
        random ^= random << xorshift[2];
        int other = (int) (random & (modulus - 1));
        if (other >= length) {
          other -= length;
        }
        swap(idx, a + other);
      }
    }
  }

  private int[] choosePivot(int a, int b) {
    final int shortestNinther = 50;
    final int maxSwaps = 4 * 3;
    int l = b - a;
    int[] swaps = {0};
    int i = a + l / 4 * 1;
    int j = a + l / 4 * 2;
    int k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= shortestNinther) {
        i = median(i - 1, i, i + 1, swaps);
        j = median(j - 1, j, j + 1, swaps);
        k = median(k - 1, k, k + 1, swaps);
      }
      j = median(i, j, k, swaps);
    }
    if (swaps[0] == 0) {
      return new int[] {j, INCREASING_HINT};
    } else if (swaps[0] == maxSwaps) {
      return new int[] {j, DECREASING_HINT};
    }
    return new int[] {j, UNKNOWN_HINT};
  }

  private int median(int a, int b, int c, int[] swaps) {
    // order2(a, b); order2(b, c); order2(a, b); the median is then b
    if (less(b, a)) {
      swaps[0]++;
      int t = a;
      a = b;
      b = t;
    }
    if (less(c, b)) {
      swaps[0]++;
      int t = b;
      b = c;
      c = t;
    }
    if (less(b, a)) {
      swaps[0]++;
      int t = a;
      a = b;
      b = t;
    }
    return b;
  }

  private void reverseRange(int a, int b) {
    int i = a;
    int j = b - 1;
    while (i < j) {
      swap(i, j);
      i++;
      j--;
    }
  }
}
