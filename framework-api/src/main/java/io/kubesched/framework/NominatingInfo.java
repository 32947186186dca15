package io.kubesched.framework;

/**
 * What a PostFilter plugin asks for the pod's nominated node.
 *
 * @param nodeName the node to nominate; {@code ""} clears the nomination under {@link
 *     Mode#OVERRIDE}
 * @param mode whether to change the nomination
 */
public record NominatingInfo(String nodeName, Mode mode) {
  /** How the nomination is changed. */
  public enum Mode {
    /** Keep the pod's current nomination. */
    NOOP,
    /** Replace the pod's nomination with {@link NominatingInfo#nodeName()}. */
    OVERRIDE
  }

  private static final NominatingInfo NOOP = new NominatingInfo("", Mode.NOOP);

  /** Normalises a {@code null} node name to {@code ""}. */
  public NominatingInfo {
    nodeName = nodeName == null ? "" : nodeName;
  }

  /** Returns the info that leaves the nomination as it is. */
  public static NominatingInfo noop() {
    return NOOP;
  }

  /** Returns the info that nominates {@code nodeName} ({@code ""} clears it). */
  public static NominatingInfo override(String nodeName) {
    return new NominatingInfo(nodeName, Mode.OVERRIDE);
  }
}
