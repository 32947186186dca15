package io.kubesched.framework;

/**
 * A queued pod's place in a {@link KeyedQueueSort} order: three numbers compared in turn, the
 * smaller first.
 *
 * @param first compared first
 * @param second compared when the first ones are equal
 * @param third compared when the first two are equal
 */
public record QueueSortKey(long first, long second, long third) {
  /**
   * Returns whether this key goes before {@code other}: smaller in the first number that differs.
   */
  public boolean isBefore(QueueSortKey other) {
    if (first != other.first) {
      return first < other.first;
    }
    if (second != other.second) {
      return second < other.second;
    }
    return third < other.third;
  }
}
