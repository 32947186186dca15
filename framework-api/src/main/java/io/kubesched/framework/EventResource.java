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
   * Returns the resource name of the events of a custom resource, kube's {@code
   * <plural>.<version>.<group>} (e.g. {@code podgroups.v1alpha1.scheduling.x-k8s.io}; {@code
   * <plural>.<version>} for the core group). The engine emits such an event, with action {@link
   * ActionType#ADD}, {@link ActionType#UPDATE} or {@link ActionType#DELETE}, when an object of a
   * custom resource is added, changed (status included) or deleted; a queueing hint function then
   * receives the old and new objects as the generic maps of {@link ClusterClient#listCustomObjects}
   * ({@code null} on add, resp. delete).
   */
  public static String of(CustomResource resource) {
    String base = resource.plural() + "." + resource.version();
    return resource.group().isEmpty() ? base : base + "." + resource.group();
  }

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
