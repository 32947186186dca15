package io.kubesched.invariants;

import java.util.List;

/**
 * A generated scenario: the initial nodes, then steps (pods created, nodes added, removed or
 * updated, pods deleted, binds made to fail), each followed by a run of the scheduler until idle.
 *
 * @param gangs whether the profile uses Coscheduling (gang pods and PodGroups) instead of
 *     PrioritySort
 */
record Scenario(boolean gangs, List<NodeSpec> nodes, List<GangSpec> groups, List<Step> steps) {

  /** The apps whose pods carry pod-level constraints; the constraint is a function of the app. */
  enum App {
    /** No pod constraint. */
    FREE,
    /** Required anti-affinity to app=web on the hostname. */
    WEB,
    /** Required anti-affinity to app=db on the zone. */
    DB,
    /** Required affinity to app=db on the zone (does not match itself). */
    CACHE,
    /** Topology spread on the zone, maxSkew 1, DoNotSchedule. */
    SPREAD_ZONE,
    /**
     * Topology spread on the hostname, maxSkew 2, DoNotSchedule, node affinity zone In [z0, z1].
     */
    SPREAD_HOST,
    /** Soft constraints only: preferred anti-affinity, ScheduleAnyway spreading. */
    SOFT,
    /** A member of a gang (its group is in {@link PodSpec#group()}). */
    GANG
  }

  /**
   * A node.
   *
   * @param zone {@code z0..z2}, or null for no zone label
   * @param tier the {@code tier} label, {@code a} or {@code b}
   * @param taint 0 none, 1 {@code dedicated=a:NoSchedule}, 2 {@code dedicated=b:PreferNoSchedule},
   *     3 {@code dedicated=c:NoExecute}
   */
  record NodeSpec(
      String zone,
      String tier,
      int cpuMilli,
      int memMi,
      int pods,
      int gpus,
      int taint,
      boolean unschedulable) {}

  /**
   * A pod.
   *
   * @param tierSelector {@code tier} nodeSelector value, or null
   * @param zoneAffinity required node affinity zone In [value], or null
   * @param tolerates whether it tolerates {@code dedicated=a:NoSchedule}
   * @param hostPort 0 for none
   * @param group gang index, or -1
   */
  record PodSpec(
      App app,
      int cpuMilli,
      int memMi,
      int gpus,
      int priority,
      String tierSelector,
      String zoneAffinity,
      boolean tolerates,
      int hostPort,
      int group) {}

  /** A gang: PodGroup {@code g<index>} with {@code minMember}. */
  record GangSpec(int minMember) {}

  /** A step of the event sequence. */
  sealed interface Step {}

  /** Create these pods. */
  record AddPods(List<PodSpec> pods) implements Step {}

  /** Add a node. */
  record AddNode(NodeSpec node) implements Step {}

  /** Remove the node at {@code index} modulo the live nodes. */
  record RemoveNode(int index) implements Step {}

  /** Toggle the taint {@code dedicated=a:NoSchedule} or unschedulable of the node at index. */
  record UpdateNode(int index, boolean toggleUnschedulable) implements Step {}

  /** Delete the pod at {@code index} modulo the live pods. */
  record DeletePod(int index) implements Step {}

  /** Make the next {@code count} binds fail ({@code conflict}: 409, else a 500-like error). */
  record FailBinds(int count, boolean conflict) implements Step {}
}
