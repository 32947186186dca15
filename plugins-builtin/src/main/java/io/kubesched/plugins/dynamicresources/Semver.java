package io.kubesched.plugins.dynamicresources;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version (semver 2.0.0) as kube's CEL semver library and DRA's {@code version}
 * attributes use it: compared by major, minor, patch, then pre-release identifiers; build metadata
 * is ignored.
 *
 * @param major the major version
 * @param minor the minor version
 * @param patch the patch version
 * @param preRelease the dot-separated pre-release identifiers, empty for a release
 */
record Semver(long major, long minor, long patch, List<String> preRelease)
    implements Comparable<Semver> {
  private static final Pattern SEMVER =
      Pattern.compile(
          "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
              + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)"
              + "(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
              + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$");

  /**
   * Parses a strict semver 2.0.0 version.
   *
   * @throws IllegalArgumentException when {@code text} is not one
   */
  static Semver parse(String text) {
    Matcher m = SEMVER.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("invalid semver: " + text);
    }
    try {
      return new Semver(
          Long.parseLong(m.group(1)),
          Long.parseLong(m.group(2)),
          Long.parseLong(m.group(3)),
          m.group(4) == null ? List.of() : List.of(m.group(4).split("\\.")));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("invalid semver: " + text, e);
    }
  }

  /** Returns whether {@code text} is a strict semver 2.0.0 version. */
  static boolean isValid(String text) {
    try {
      parse(text);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  @Override
  public int compareTo(Semver o) {
    int c = Long.compare(major, o.major);
    if (c == 0) {
      c = Long.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compare(patch, o.patch);
    }
    if (c != 0) {
      return Integer.signum(c);
    }
    if (preRelease.isEmpty() || o.preRelease.isEmpty()) {
      // A release is greater than any of its pre-releases.
      return Boolean.compare(preRelease.isEmpty(), o.preRelease.isEmpty());
    }
    for (int i = 0; i < Math.min(preRelease.size(), o.preRelease.size()); i++) {
      c = comparePart(preRelease.get(i), o.preRelease.get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(preRelease.size(), o.preRelease.size());
  }

  private static int comparePart(String a, String b) {
    boolean an = a.chars().allMatch(Character::isDigit);
    boolean bn = b.chars().allMatch(Character::isDigit);
    if (an && bn) {
      return Integer.signum(Long.compare(Long.parseLong(a), Long.parseLong(b)));
    }
    if (an != bn) {
      return an ? -1 : 1; // numeric identifiers have lower precedence
    }
    return Integer.signum(a.compareTo(b));
  }

  @Override
  public String toString() {
    String base = major + "." + minor + "." + patch;
    return preRelease.isEmpty() ? base : base + "-" + String.join(".", preRelease);
  }
}
