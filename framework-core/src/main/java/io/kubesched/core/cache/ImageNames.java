package io.kubesched.core.cache;

/** Container image name helpers shared by the cache and the ImageLocality plugin. */
public final class ImageNames {
  private ImageNames() {}

  /**
   * Returns the CRI-compliant form of {@code name}: {@code :latest} is appended when the name
   * carries no tag (no {@code :} after the last {@code /}), as kube's {@code normalizedImageName}.
   */
  public static String normalize(String name) {
    if (name.lastIndexOf(':') <= name.lastIndexOf('/')) {
      return name + ":latest";
    }
    return name;
  }
}
