package io.kubesched.benchmarks.workload;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one workload run, with the fields of benchmarks.md.
 *
 * @param workload the upstream name
 * @param nodes the number of nodes
 * @param initPods the number of initial pods
 * @param measuredPods the number of measured pods
 * @param threads the Filter/Score parallelism (1: the scheduling thread alone)
 * @param pctToScore the configured percentageOfNodesToScore (0: adaptive, kube's default)
 * @param nodesToScore the number of feasible nodes kube's formula searches for
 * @param podsPerSecAvg measured pods divided by the measurement's duration
 * @param p50 the median of the 1-second throughput samples (pods/s)
 * @param p90 their 90th percentile
 * @param p99 their 99th percentile
 * @param samples the number of 1-second samples (a last partial second counts when ≥ 100 ms)
 * @param attemptP50Ms the median scheduling-attempt latency (ms)
 * @param attemptP90Ms its 90th percentile
 * @param attemptP99Ms its 99th percentile
 * @param attempts the number of attempts recorded while measuring
 * @param peakHeapMiB the peak heap use over the whole workload (sum of the heap pools' peaks)
 * @param liveHeapMiB the heap in use after a full GC at the end, with everything still reachable
 * @param jvmThreads the peak number of live JVM threads
 * @param seconds the measurement's duration
 * @param deletedPods the pods deleted during the run (preemption victims)
 * @param loopBusyPct the share of the measurement the scheduling loop thread was on a CPU
 * @param bindBusyPct the same for the binding thread
 * @param createBusyPct the same for the runner's thread creating the measured pods
 * @param threadCpuMs the CPU milliseconds each group of the process's threads (the JVM's own
 *     included: JIT compilers, GC) used during the measurement, by thread name; empty where Linux's
 *     {@code /proc} is not available
 * @param failures the verification failures; empty when the run is correct
 */
public record WorkloadResult(
    String workload,
    int nodes,
    int initPods,
    int measuredPods,
    int threads,
    int pctToScore,
    int nodesToScore,
    double podsPerSecAvg,
    double p50,
    double p90,
    double p99,
    int samples,
    double attemptP50Ms,
    double attemptP90Ms,
    double attemptP99Ms,
    int attempts,
    long peakHeapMiB,
    long liveHeapMiB,
    int jvmThreads,
    double seconds,
    int deletedPods,
    int loopBusyPct,
    int bindBusyPct,
    int createBusyPct,
    Map<String, Long> threadCpuMs,
    List<String> failures) {

  /** Copies the collections. */
  public WorkloadResult {
    threadCpuMs = Collections.unmodifiableMap(new TreeMap<>(threadCpuMs));
    failures = List.copyOf(failures);
  }

  /**
   * Returns the measured pods per second of the scheduling loop's CPU time: what one core running
   * only the loop would do, independent of how busy the machine was (the binding and the pod
   * creation run on other threads).
   */
  public double podsPerLoopCpuSec() {
    return loopBusyPct <= 0 ? 0 : podsPerSecAvg * 100.0 / loopBusyPct;
  }

  /** Returns whether the verification passed. */
  public boolean ok() {
    return failures.isEmpty();
  }

  /** Returns the result as one JSON object. */
  public String toJson() {
    StringBuilder sb = new StringBuilder("{");
    field(sb, "workload", "\"" + workload + "\"");
    field(sb, "nodes", nodes);
    field(sb, "initPods", initPods);
    field(sb, "measuredPods", measuredPods);
    field(sb, "threads", threads);
    field(sb, "pctToScore", pctToScore);
    field(sb, "nodesToScore", nodesToScore);
    field(sb, "podsPerSecAvg", round(podsPerSecAvg));
    field(sb, "p50", round(p50));
    field(sb, "p90", round(p90));
    field(sb, "p99", round(p99));
    field(sb, "samples", samples);
    field(sb, "attemptP50Ms", round3(attemptP50Ms));
    field(sb, "attemptP90Ms", round3(attemptP90Ms));
    field(sb, "attemptP99Ms", round3(attemptP99Ms));
    field(sb, "attempts", attempts);
    field(sb, "peakHeapMiB", peakHeapMiB);
    field(sb, "liveHeapMiB", liveHeapMiB);
    field(sb, "jvmThreads", jvmThreads);
    field(sb, "seconds", round3(seconds));
    field(sb, "deletedPods", deletedPods);
    field(sb, "loopBusyPct", loopBusyPct);
    field(sb, "bindBusyPct", bindBusyPct);
    field(sb, "createBusyPct", createBusyPct);
    StringBuilder cpu = new StringBuilder("{");
    threadCpuMs.forEach(
        (name, ms) ->
            cpu.append(cpu.length() > 1 ? "," : "")
                .append('"')
                .append(name.replace("\\", "\\\\").replace("\"", "\\\""))
                .append("\":")
                .append(ms));
    field(sb, "threadCpuMs", cpu.append('}').toString());
    field(sb, "podsPerLoopCpuSec", round(podsPerLoopCpuSec()));
    field(sb, "verified", ok());
    StringBuilder f = new StringBuilder("[");
    for (int i = 0; i < failures.size(); i++) {
      f.append(i == 0 ? "" : ",").append('"').append(escape(failures.get(i))).append('"');
    }
    sb.append("\"failures\":").append(f).append("]}");
    return sb.toString();
  }

  private static void field(StringBuilder sb, String name, Object value) {
    sb.append('"').append(name).append("\":").append(value).append(',');
  }

  private static String round(double d) {
    return String.format(java.util.Locale.ROOT, "%.1f", d);
  }

  private static String round3(double d) {
    return String.format(java.util.Locale.ROOT, "%.3f", d);
  }

  private static String escape(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
