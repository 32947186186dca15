package io.kubesched.cli.report;

import java.util.List;
import java.util.Map;

/**
 * The outcome of a simulation: where each pod went, how full each node is, which pods were evicted
 * by preemption and, on request, the scheduling trace of one pod.
 *
 * @param pods one entry per pod that was pending at the start, in input order (listed Pods, then
 *     the pods of workloads)
 * @param nodes one entry per node, in input order
 * @param evicted the preemption victims, {@code namespace/name}
 * @param explain the trace asked for with {@code --explain}, or {@code null}
 * @param warnings problems that did not stop the simulation (unknown kinds skipped, ...)
 * @param existing one entry per pod bound in the input (existing load), in input order: status
 *     {@code Bound} with its node when it is still there at the end, {@code Evicted} (node {@code
 *     null}, the {@code Preempted} event's message) when preemption deleted it
 * @param claims the persistent volume claims at the end, in creation order
 * @param resourceClaims the DRA ResourceClaims at the end, in creation order (empty without any)
 */
public record SimulationReport(
    List<PodResult> pods,
    List<NodeResult> nodes,
    List<String> evicted,
    Explain explain,
    List<String> warnings,
    List<PodResult> existing,
    List<ClaimResult> claims,
    List<ResourceClaimResult> resourceClaims) {

  /** A report without existing load, volume claims or ResourceClaims. */
  public SimulationReport(
      List<PodResult> pods,
      List<NodeResult> nodes,
      List<String> evicted,
      Explain explain,
      List<String> warnings) {
    this(pods, nodes, evicted, explain, warnings, List.of(), List.of(), List.of());
  }

  /**
   * Which volume one claim got.
   *
   * @param namespace the namespace
   * @param name the name
   * @param volume the bound PersistentVolume, or {@code null}
   * @param phase the claim's phase ({@code Pending}, {@code Bound}, ...)
   */
  public record ClaimResult(String namespace, String name, String volume, String phase) {}

  /**
   * One ResourceClaim and what the scheduler allocated for it.
   *
   * @param namespace the namespace
   * @param name the name
   * @param devices the allocated devices as {@code request: driver/pool/device}, empty when the
   *     claim is not allocated
   * @param reservedFor the pods it is reserved for, {@code namespace/name}
   */
  public record ResourceClaimResult(
      String namespace, String name, List<String> devices, List<String> reservedFor) {}

  /** The status values of {@link PodResult#status()}. */
  public static final List<String> STATUSES =
      List.of("Scheduled", "Unschedulable", "SchedulingGated", "Waiting", "Error");

  /**
   * Where one pod ended.
   *
   * @param namespace the namespace
   * @param name the name
   * @param node the node it is bound to, or {@code null}
   * @param status one of {@link #STATUSES}, or for existing load {@code Bound} or {@code Evicted}
   * @param message the FailedScheduling message (kube-scheduler's text), or {@code null}
   * @param nominatedNode the nominated node, or {@code null}
   */
  public record PodResult(
      String namespace,
      String name,
      String node,
      String status,
      String message,
      String nominatedNode) {}

  /**
   * The load of one node at the end.
   *
   * @param name the node name
   * @param pods the pods on it, {@code namespace/name}, bound existing load included
   * @param allocatable cpu, memory and pods allocatable, canonical quantities
   * @param requested cpu and memory requested by its pods, canonical quantities
   * @param cpuPercent requested CPU as a percentage of allocatable
   * @param memoryPercent requested memory as a percentage of allocatable
   */
  public record NodeResult(
      String name,
      List<String> pods,
      Map<String, String> allocatable,
      Map<String, String> requested,
      double cpuPercent,
      double memoryPercent) {}

  /**
   * The last scheduling attempt of one pod.
   *
   * @param pod {@code namespace/name}
   * @param selectedNode the chosen node, or {@code null}
   * @param nodes every node with its filter status and scores
   * @param message the attempt's FailedScheduling message, or {@code null}
   */
  public record Explain(String pod, String selectedNode, List<ExplainNode> nodes, String message) {}

  /**
   * One node in an explain trace.
   *
   * @param name the node
   * @param filter the Filter outcome
   * @param scores normalised scores before weights, by plugin ({@code null} when not scored)
   * @param total the weighted sum ({@code null} when not scored)
   */
  public record ExplainNode(
      String name, FilterOutcome filter, Map<String, Long> scores, Long total) {}

  /**
   * A Filter outcome.
   *
   * @param code the status code name ({@code Success}, {@code Unschedulable}, ...)
   * @param plugin the rejecting plugin, or {@code null}
   * @param reasons the reasons
   */
  public record FilterOutcome(String code, String plugin, List<String> reasons) {}
}
