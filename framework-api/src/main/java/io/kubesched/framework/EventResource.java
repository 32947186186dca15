package io.kubesched.framework;

/** The resources whose events can move pods (kube's {@code framework.EventResource}). */
public final class EventResource {
  /** Pods. */
  public static final String POD = "Pod";

  /** Pods that are assigned to a node (an internal refinement of {@link #POD}). */
  public static final String ASSIGNED_POD = "AssignedPod";

  /** Pods that are not assigned yet (an internal refinement of {@link #POD}). */
  public static final String UNSCHEDULED_POD = "UnschedulablePod";

  /** Nodes. */
  public static final String NODE = "Node";

  /** Persistent volumes. */
  public static final String PERSISTENT_VOLUME = "PersistentVolume";

  /** Persistent volume claims. */
  public static final String PERSISTENT_VOLUME_CLAIM = "PersistentVolumeClaim";

  /** Storage classes. */
  public static final String STORAGE_CLASS = "storage.k8s.io/StorageClass";

  /** CSINode objects. */
  public static final String CSI_NODE = "storage.k8s.io/CSINode";

  /** CSIDriver objects. */
  public static final String CSI_DRIVER = "storage.k8s.io/CSIDriver";

  /** CSIStorageCapacity objects. */
  public static final String CSI_STORAGE_CAPACITY = "storage.k8s.io/CSIStorageCapacity";

  /** DRA ResourceClaims. */
  public static final String RESOURCE_CLAIM = "resource.k8s.io/ResourceClaim";

  /** DRA ResourceSlices. */
  public static final String RESOURCE_SLICE = "resource.k8s.io/ResourceSlice";

  /** DRA DeviceClasses. */
  public static final String DEVICE_CLASS = "resource.k8s.io/DeviceClass";

  /** Any resource. */
  public static final String WILDCARD = "*";

  private EventResource() {}

  /**
   * Returns whether a registration for {@code registered} matches an incoming event of {@code
   * incoming}: equal, the wildcard, or a registered {@code Pod} matching the internal pod kinds.
   */
  public static boolean matches(String registered, String incoming) {
    if (WILDCARD.equals(registered) || registered.equals(incoming)) {
      return true;
    }
    return POD.equals(registered)
        && (ASSIGNED_POD.equals(incoming) || UNSCHEDULED_POD.equals(incoming));
  }
}
