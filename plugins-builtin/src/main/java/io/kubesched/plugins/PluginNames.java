package io.kubesched.plugins;

/**
 * The names of kube-scheduler's default plugins, byte for byte as kube-scheduler spells them
 * (kube's {@code plugins/names} package). Configuration files and statuses use these names.
 */
public final class PluginNames {
  /** The queue-sort plugin ordering pods by priority, then by enqueue time. */
  public static final String PRIORITY_SORT = "PrioritySort";

  /** The PreEnqueue plugin holding back pods that have scheduling gates. */
  public static final String SCHEDULING_GATES = "SchedulingGates";

  /** The binder that posts the {@code pods/binding} subresource. */
  public static final String DEFAULT_BINDER = "DefaultBinder";

  /** The PostFilter plugin that preempts lower-priority pods. */
  public static final String DEFAULT_PREEMPTION = "DefaultPreemption";

  /** The Filter plugin checking {@code spec.unschedulable}. */
  public static final String NODE_UNSCHEDULABLE = "NodeUnschedulable";

  /** The Filter plugin checking {@code spec.nodeName}. */
  public static final String NODE_NAME = "NodeName";

  /** The Filter/Score plugin for node taints and pod tolerations. */
  public static final String TAINT_TOLERATION = "TaintToleration";

  /** The Filter/Score plugin for node selectors and node affinity. */
  public static final String NODE_AFFINITY = "NodeAffinity";

  /** The Filter plugin for host ports. */
  public static final String NODE_PORTS = "NodePorts";

  /** The Filter/Score plugin for resource requests. */
  public static final String NODE_RESOURCES_FIT = "NodeResourcesFit";

  /** The Score plugin favouring balanced resource usage. */
  public static final String NODE_RESOURCES_BALANCED_ALLOCATION = "NodeResourcesBalancedAllocation";

  /** The Score plugin favouring nodes that already hold the pod's images. */
  public static final String IMAGE_LOCALITY = "ImageLocality";

  /** The Filter/Score plugin for pod topology spread constraints. */
  public static final String POD_TOPOLOGY_SPREAD = "PodTopologySpread";

  /** The Filter/Score plugin for inter-pod affinity and anti-affinity. */
  public static final String INTER_POD_AFFINITY = "InterPodAffinity";

  /** The PreFilter/Filter plugin for disk conflicts and ReadWriteOncePod claims in use. */
  public static final String VOLUME_RESTRICTIONS = "VolumeRestrictions";

  /** The PreFilter/Filter plugin for the CSI volumes a node can attach. */
  public static final String NODE_VOLUME_LIMITS = "NodeVolumeLimits";

  /** The volume binder: PV node affinity, WaitForFirstConsumer binding and provisioning. */
  public static final String VOLUME_BINDING = "VolumeBinding";

  /** The PreFilter/Filter plugin for the zones of bound volumes. */
  public static final String VOLUME_ZONE = "VolumeZone";

  /** The dynamic resource allocation plugin (not ported). */
  public static final String DYNAMIC_RESOURCES = "DynamicResources";

  private PluginNames() {}
}
