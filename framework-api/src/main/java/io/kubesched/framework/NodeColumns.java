package io.kubesched.framework;

import java.util.Arrays;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The snapshot's per-node values that the default Filter and Score plugins read for every node of
 * every pod, in flat primitive arrays indexed by the node's position (row) in {@link
 * NodeInfoLister#list()}: a loop over many nodes reads a few adjacent arrays instead of chasing a
 * {@link NodeInfo}, its lists and maps through memory.
 *
 * <p>Row {@code r} holds exactly what {@code list().get(r)} answers: {@link #allocatableMilliCpu}
 * is its {@link NodeInfo#allocatableMilliCpu()}, {@link #hasTaints} is {@code !taints().isEmpty()},
 * and so on. The snapshot's owner keeps the rows up to date ({@link #set}, {@link #resize}) as it
 * replaces node infos, row by row; a cycle reads them while the snapshot is fixed. Plugins only
 * read. The framework hands the columns and each node's row to the bulk calls ({@link
 * CycleBoundFilter.NodeCheck#filterAll}, {@link CycleBoundScore.NodeScorer#scoreAll}).
 *
 * <p>The values of a label key (a topology key, typically) are kept as a column too once a plugin
 * has asked for them ({@link #labelValues}), up to {@value #MAX_LABEL_COLUMNS} keys.
 */
public final class NodeColumns {
  private int size;
  private long[] allocatableMilliCpu = new long[0];
  private long[] allocatableMemory = new long[0];
  private long[] allocatableEphemeralStorage = new long[0];
  private long[] requestedMilliCpu = new long[0];
  private long[] requestedMemory = new long[0];
  private long[] requestedEphemeralStorage = new long[0];
  private long[] nonZeroMilliCpu = new long[0];
  private long[] nonZeroMemory = new long[0];
  private long[] allowedPodNumber = new long[0];
  private int[] podCount = new int[0];
  private byte[] flags = new byte[0];
  private NodeInfo[] nodes = new NodeInfo[0];
  private int rowsWithTaints;
  private int rowsNotSchedulable;

  /** At most this many label keys get a column; {@link #labelValues} answers null for more. */
  public static final int MAX_LABEL_COLUMNS = 8;

  /**
   * The label columns asked for so far, published whole: a column is added (under this object's
   * lock) while a cycle reads the rows; {@link #set} and {@link #resize} write them in place while
   * none does.
   */
  private volatile LabelColumn[] labelColumns = new LabelColumn[0];

  private record LabelColumn(String key, String[] values) {}

  private static final byte HAS_NODE = 1;
  private static final byte UNSCHEDULABLE = 2;
  private static final byte HAS_TAINTS = 4;
  private static final byte HAS_IMAGES = 8;

  /** Creates empty columns. */
  public NodeColumns() {}

  /** Returns the number of rows. */
  public int size() {
    return size;
  }

  /** Sets the number of rows to {@code rows}; rows added are zero until {@link #set}. */
  public void resize(int rows) {
    if (rows > allocatableMilliCpu.length) {
      int cap = Math.max(rows, allocatableMilliCpu.length * 3 / 2);
      allocatableMilliCpu = Arrays.copyOf(allocatableMilliCpu, cap);
      allocatableMemory = Arrays.copyOf(allocatableMemory, cap);
      allocatableEphemeralStorage = Arrays.copyOf(allocatableEphemeralStorage, cap);
      requestedMilliCpu = Arrays.copyOf(requestedMilliCpu, cap);
      requestedMemory = Arrays.copyOf(requestedMemory, cap);
      requestedEphemeralStorage = Arrays.copyOf(requestedEphemeralStorage, cap);
      nonZeroMilliCpu = Arrays.copyOf(nonZeroMilliCpu, cap);
      nonZeroMemory = Arrays.copyOf(nonZeroMemory, cap);
      allowedPodNumber = Arrays.copyOf(allowedPodNumber, cap);
      podCount = Arrays.copyOf(podCount, cap);
      flags = Arrays.copyOf(flags, cap);
      nodes = Arrays.copyOf(nodes, cap);
      LabelColumn[] old = labelColumns;
      LabelColumn[] grown = new LabelColumn[old.length];
      for (int c = 0; c < old.length; c++) {
        grown[c] = new LabelColumn(old[c].key(), Arrays.copyOf(old[c].values(), cap));
      }
      labelColumns = grown;
    }
    for (int r = size; r < rows; r++) {
      flags[r] = 0;
      count((byte) 0, 1);
    }
    for (int r = rows; r < size; r++) {
      count(flags[r], -1);
      flags[r] = 0;
    }
    if (rows < size) {
      Arrays.fill(nodes, rows, size, null);
      for (LabelColumn c : labelColumns) {
        Arrays.fill(c.values(), rows, size, null);
      }
    }
    size = rows;
  }

  /** Copies {@code node}'s values into row {@code row} (below {@link #size()}). */
  public void set(int row, NodeInfo node) {
    if (row < 0 || row >= size) {
      throw new IndexOutOfBoundsException("row " + row + " of " + size);
    }
    nodes[row] = node;
    allocatableMilliCpu[row] = node.allocatableMilliCpu();
    allocatableMemory[row] = node.allocatableMemory();
    allocatableEphemeralStorage[row] = node.allocatableEphemeralStorage();
    requestedMilliCpu[row] = node.requestedMilliCpu();
    requestedMemory[row] = node.requestedMemory();
    requestedEphemeralStorage[row] = node.requestedEphemeralStorage();
    nonZeroMilliCpu[row] = node.nonZeroMilliCpu();
    nonZeroMemory[row] = node.nonZeroMemory();
    allowedPodNumber[row] = node.allowedPodNumber();
    podCount[row] = node.podCount();
    byte f = 0;
    if (node.node() != null) {
      f |= HAS_NODE;
    }
    if (node.unschedulable()) {
      f |= UNSCHEDULABLE;
    }
    if (!node.taints().isEmpty()) {
      f |= HAS_TAINTS;
    }
    if (!node.imageStates().isEmpty()) {
      f |= HAS_IMAGES;
    }
    count(flags[row], -1);
    count(f, 1);
    flags[row] = f;
    LabelColumn[] lc = labelColumns;
    if (lc.length > 0) {
      Map<String, String> labels = node.labels();
      for (LabelColumn c : lc) {
        c.values()[row] = labels.get(c.key());
      }
    }
  }

  private void count(byte f, int delta) {
    if ((f & HAS_TAINTS) != 0) {
      rowsWithTaints += delta;
    }
    if ((f & HAS_NODE) == 0 || (f & UNSCHEDULABLE) != 0) {
      rowsNotSchedulable += delta;
    }
  }

  /** Returns how many rows {@link #hasTaints have taints}. */
  public int rowsWithTaints() {
    return rowsWithTaints;
  }

  /**
   * Returns how many rows have no {@link #hasNode node} or an {@link #unschedulable unschedulable}
   * one.
   */
  public int rowsNotSchedulable() {
    return rowsNotSchedulable;
  }

  /**
   * The values of label {@code key} by row: element {@code r} is {@code node(r).labels().get(key)},
   * {@code null} where the node lacks it. The first call for a key reads every row's labels; later
   * ones return the same column, kept up to date by {@link #set}. Safe to call from several threads
   * of one cycle. Callers only read the array, and only its first {@link #size()} elements.
   *
   * @return the column, or {@code null} once {@value #MAX_LABEL_COLUMNS} other keys have one (read
   *     the labels then)
   */
  public String @Nullable [] labelValues(String key) {
    for (LabelColumn c : labelColumns) {
      if (c.key().equals(key)) {
        return c.values();
      }
    }
    return addLabelColumn(key);
  }

  private synchronized String @Nullable [] addLabelColumn(String key) {
    LabelColumn[] old = labelColumns;
    for (LabelColumn c : old) {
      if (c.key().equals(key)) {
        return c.values();
      }
    }
    if (old.length >= MAX_LABEL_COLUMNS) {
      return null;
    }
    String[] values = new String[nodes.length];
    for (int r = 0; r < size; r++) {
      NodeInfo node = nodes[r];
      values[r] = node == null ? null : node.labels().get(key);
    }
    LabelColumn[] grown = Arrays.copyOf(old, old.length + 1);
    grown[old.length] = new LabelColumn(key, values);
    labelColumns = grown;
    return values;
  }

  /**
   * The node info of row {@code r}, the one its values were copied from ({@code list().get(r)}),
   * read from an array rather than through the list.
   */
  public NodeInfo node(int r) {
    return nodes[r];
  }

  /** {@link NodeInfo#allocatableMilliCpu()} of row {@code r}. */
  public long allocatableMilliCpu(int r) {
    return allocatableMilliCpu[r];
  }

  /** {@link NodeInfo#allocatableMemory()} of row {@code r}. */
  public long allocatableMemory(int r) {
    return allocatableMemory[r];
  }

  /** {@link NodeInfo#allocatableEphemeralStorage()} of row {@code r}. */
  public long allocatableEphemeralStorage(int r) {
    return allocatableEphemeralStorage[r];
  }

  /** {@link NodeInfo#requestedMilliCpu()} of row {@code r}. */
  public long requestedMilliCpu(int r) {
    return requestedMilliCpu[r];
  }

  /** {@link NodeInfo#requestedMemory()} of row {@code r}. */
  public long requestedMemory(int r) {
    return requestedMemory[r];
  }

  /** {@link NodeInfo#requestedEphemeralStorage()} of row {@code r}. */
  public long requestedEphemeralStorage(int r) {
    return requestedEphemeralStorage[r];
  }

  /** {@link NodeInfo#nonZeroMilliCpu()} of row {@code r}. */
  public long nonZeroMilliCpu(int r) {
    return nonZeroMilliCpu[r];
  }

  /** {@link NodeInfo#nonZeroMemory()} of row {@code r}. */
  public long nonZeroMemory(int r) {
    return nonZeroMemory[r];
  }

  /** {@link NodeInfo#allowedPodNumber()} of row {@code r}. */
  public long allowedPodNumber(int r) {
    return allowedPodNumber[r];
  }

  /** {@link NodeInfo#podCount()} of row {@code r}. */
  public int podCount(int r) {
    return podCount[r];
  }

  /** Whether row {@code r}'s {@link NodeInfo#node()} is set. */
  public boolean hasNode(int r) {
    return (flags[r] & HAS_NODE) != 0;
  }

  /** {@link NodeInfo#unschedulable()} of row {@code r}. */
  public boolean unschedulable(int r) {
    return (flags[r] & UNSCHEDULABLE) != 0;
  }

  /** Whether row {@code r}'s {@link NodeInfo#taints()} is not empty. */
  public boolean hasTaints(int r) {
    return (flags[r] & HAS_TAINTS) != 0;
  }

  /** Whether row {@code r}'s {@link NodeInfo#imageStates()} is not empty. */
  public boolean hasImages(int r) {
    return (flags[r] & HAS_IMAGES) != 0;
  }
}
