package io.kubesched.core.runtime;

import java.util.Arrays;

/**
 * A pod's scheduling signature for opportunistic batching ({@link Framework#signPod}): the fragment
 * of each plugin that signs, in the profile's order. Two signatures of one profile are equal when
 * every fragment is; comparing signatures of different profiles means nothing.
 *
 * @param fragments one per signing plugin, not copied: must not be written after construction
 */
public record PodSignature(String... fragments) {
  @Override
  public boolean equals(Object o) {
    return o instanceof PodSignature s && Arrays.equals(fragments, s.fragments);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(fragments);
  }

  @Override
  public String toString() {
    return "PodSignature" + Arrays.toString(fragments);
  }
}
