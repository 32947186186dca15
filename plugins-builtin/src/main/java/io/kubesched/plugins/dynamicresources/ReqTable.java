package io.kubesched.plugins.dynamicresources;

/**
 * One search's request data by claim, request and sub-request number ({@code 0} for a request
 * without sub-requests): a plain array, read for every device the search tries.
 */
final class ReqTable {
  private final ReqData[][][] byClaim;

  /** A table for {@code claims} claims; each claim's requests are set with {@link #claim}. */
  ReqTable(int claims) {
    this.byClaim = new ReqData[claims][][];
  }

  /** Sets claim {@code ci}'s rows: one array of sub-request data per request. */
  void claim(int ci, ReqData[][] requests) {
    byClaim[ci] = requests;
  }

  /** The data of claim {@code ci}, request {@code ri}, sub-request {@code si}. */
  ReqData get(int ci, int ri, int si) {
    return byClaim[ci][ri][si];
  }

  /** Whether claim {@code ci}'s request {@code ri} has a sub-request number {@code si}. */
  boolean has(int ci, int ri, int si) {
    return si < byClaim[ci][ri].length;
  }
}
