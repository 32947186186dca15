package io.kubesched.framework;

/** The names of the resources the scheduler knows, and kube's tests on resource names. */
public final class ResourceNames {
  /** CPU, in cores. */
  public static final String CPU = "cpu";

  /** Memory, in bytes. */
  public static final String MEMORY = "memory";

  /** Local ephemeral storage, in bytes. */
  public static final String EPHEMERAL_STORAGE = "ephemeral-storage";

  /** The number of pods a node accepts. */
  public static final String PODS = "pods";

  /** The CPU a container without a CPU request counts for in scoring: 100m. */
  public static final long DEFAULT_MILLI_CPU_REQUEST = 100;

  /** The memory a container without a memory request counts for in scoring: 200 MiB. */
  public static final long DEFAULT_MEMORY_REQUEST = 200L * 1024 * 1024;

  private ResourceNames() {}

  /**
   * Returns whether {@code name} is a scalar resource (kube's {@code IsScalarResourceName}): an
   * extended resource, a hugepages size, a prefixed native resource or an attachable volume.
   */
  public static boolean isScalar(String name) {
    return name.indexOf('/') >= 0
        || name.startsWith("hugepages-")
        || name.startsWith("attachable-volumes-");
  }

  /**
   * Returns whether {@code name} is an extended resource: a name with a domain other than {@code
   * kubernetes.io} (kube's {@code IsExtendedResourceName}).
   */
  public static boolean isExtended(String name) {
    int slash = name.indexOf('/');
    if (slash < 0) {
      return false;
    }
    String domain = name.substring(0, slash);
    return !(domain.equals("kubernetes.io") || domain.endsWith(".kubernetes.io"));
  }
}
