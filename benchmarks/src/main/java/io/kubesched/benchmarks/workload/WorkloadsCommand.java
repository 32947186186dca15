package io.kubesched.benchmarks.workload;

import io.kubesched.framework.FeatureGates;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code workloads} sub-command: {@code [--workload NAME] [--nodes N] [--pods N] [--init-pods
 * N] [--threads N] [--pct N] [--timeout SECONDS] [--json FILE] [--no-warmup]}. {@code --workload}
 * selects the workloads whose name contains NAME, or one of several comma-separated NAMEs
 * (case-insensitive; all by default), in catalogue order; the size options override every selected
 * workload's sizes. Each workload is preceded by an unreported warm-up run of itself scaled down
 * (at most 1000 nodes and 2000 measured pods, same proportions) unless {@code --no-warmup} is
 * given. Prints a table, writes the JSON array, and exits non-zero when a run fails its
 * verification.
 *
 * <p>{@code --baseline JAR [--rounds N] [--jvm-args "ARGS"]} switches to the comparison mode
 * ({@link BaselineComparison}): every selected workload runs N times (default 3) alternately with
 * this build and with the other build's benchmarks jar, each run in a new JVM started with ARGS
 * (default {@code -Xmx2g}) and the other options passed on; both medians and their ratio are
 * printed. {@code --feature-gates GATES} (kube's syntax, e.g. {@code OpportunisticBatching=true})
 * sets this build's scheduler gates; in the comparison mode it goes to this build's runs only (an
 * older build may not know the option).
 */
public final class WorkloadsCommand {
  private WorkloadsCommand() {}

  /** Runs the command and returns the process exit code. */
  public static int run(String[] args, PrintStream out) throws IOException {
    String filter = null;
    int nodes = -1;
    int pods = -1;
    int initPods = -1;
    int threads = 1;
    Integer pct = null;
    Duration timeout = Duration.ofMinutes(10);
    Path json = null;
    boolean warmup = true;
    boolean threadCpu = false;
    String baseline = null;
    int rounds = 3;
    String jvmArgs = "-Xmx2g";
    String gates = null;
    List<String> passOn = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--help") || a.equals("-h")) {
        out.println(USAGE);
        return 0;
      }
      if (a.equals("--thread-cpu")) {
        threadCpu = true;
        continue;
      }
      if (a.equals("--no-warmup")) {
        warmup = false;
        passOn.add(a);
        continue;
      }
      if (i + 1 >= args.length) {
        out.println("missing value for " + a);
        return 2;
      }
      String v = args[++i];
      if (PASSED_ON.contains(a)) {
        passOn.add(a);
        passOn.add(v);
      }
      try {
        switch (a) {
          case "--workload" -> filter = v;
          case "--nodes" -> nodes = Integer.parseInt(v);
          case "--pods" -> pods = Integer.parseInt(v);
          case "--init-pods" -> initPods = Integer.parseInt(v);
          case "--threads" -> threads = Integer.parseInt(v);
          case "--pct" -> pct = Integer.parseInt(v);
          case "--timeout" -> timeout = Duration.ofSeconds(Long.parseLong(v));
          case "--json" -> json = Path.of(v);
          case "--baseline" -> baseline = v;
          case "--rounds" -> rounds = Integer.parseInt(v);
          case "--jvm-args" -> jvmArgs = v;
          case "--feature-gates" -> gates = v;
          default -> {
            out.println("unknown option " + a + " (see --help)");
            return 2;
          }
        }
      } catch (NumberFormatException e) {
        out.println(a + ": not a whole number: " + v);
        return 2;
      }
    }
    List<Workload> selected = new ArrayList<>();
    for (Workload w : Workload.catalog()) {
      if (matches(w.name(), filter)) {
        selected.add(w.withSizes(nodes, initPods, pods));
      }
    }
    if (selected.isEmpty()) {
      out.println(BaselineComparison.NO_MATCH + filter);
      return 2;
    }
    FeatureGates featureGates;
    try {
      featureGates = gates == null ? FeatureGates.defaults() : FeatureGates.parse(gates);
    } catch (IllegalArgumentException e) {
      out.println("--feature-gates: " + e.getMessage());
      return 2;
    }
    if (baseline != null) {
      List<String> own = new ArrayList<>(passOn);
      if (gates != null) {
        own.add("--feature-gates");
        own.add(gates);
      }
      return compare(selected, own, passOn, baseline, rounds, jvmArgs, timeout, out);
    }
    WorkloadRunner.Options options =
        new WorkloadRunner.Options(threads, pct, timeout, featureGates);
    out.println(header());
    List<WorkloadResult> results = new ArrayList<>();
    boolean ok = true;
    for (Workload w : selected) {
      if (warmup) {
        // A small run of the same workload first, so that the measured one runs JIT-compiled
        // code (a scheduler process runs for days; its first seconds are not its speed).
        WorkloadRunner.run(warmup(w), options);
      }
      WorkloadResult r = WorkloadRunner.run(w, options);
      results.add(r);
      out.println(row(r));
      if (threadCpu) {
        out.println(threadCpuLine(r));
      }
      if (!r.ok()) {
        ok = false;
        for (String f : r.failures()) {
          out.println("  FAILURE: " + f);
        }
      }
      if (json != null) {
        writeJson(json, results);
      }
    }
    out.println(ok ? "verification: OK" : "verification: FAILURE");
    return ok ? 0 : 1;
  }

  /**
   * Returns whether {@code name} contains one of the comma-separated parts of {@code filter}
   * (case-insensitive); every name matches a null filter.
   */
  static boolean matches(String name, String filter) {
    if (filter == null) {
      return true;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    for (String part : filter.split(",")) {
      if (!part.isBlank() && lower.contains(part.trim().toLowerCase(Locale.ROOT))) {
        return true;
      }
    }
    return false;
  }

  /** What {@code workloads --help} prints. */
  static final String USAGE =
      String.join(
          "\n",
          "usage: benchmarks workloads [options]",
          "  --workload NAMES      comma-separated substrings of workload names (default: all)",
          "  --nodes N --init-pods N --pods N   other sizes than the workload's",
          "  --threads N           Filter/Score workers (default 1)",
          "  --pct N               percentageOfNodesToScore (default: adaptive)",
          "  --timeout SECONDS     per workload (default 600)",
          "  --no-warmup           skip the warm-up run",
          "  --thread-cpu          print each thread group's CPU time in the measurement (Linux)",
          "  --json FILE           write the results as JSON",
          "  --feature-gates G     e.g. OpportunisticBatching=true",
          "  --baseline JAR        alternate rounds with another build's benchmarks jar",
          "  --rounds N            rounds per build with --baseline (default 3)",
          "  --jvm-args ARGS       JVM options of each round with --baseline (default -Xmx2g)",
          "See docs/benchmarks.md.");

  private static final java.util.Set<String> PASSED_ON =
      java.util.Set.of("--nodes", "--pods", "--init-pods", "--threads", "--pct", "--timeout");

  private static int compare(
      List<Workload> selected,
      List<String> ownArgs,
      List<String> passOn,
      String baseline,
      int rounds,
      String jvmArgs,
      Duration timeout,
      PrintStream out)
      throws IOException {
    if (!Files.isReadable(Path.of(baseline))) {
      out.println("--baseline: cannot read " + baseline);
      return 2;
    }
    if (rounds < 1) {
      out.println("--rounds: must be at least 1, got " + rounds);
      return 2;
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> jvm = jvmArgs.isBlank() ? List.of() : List.of(jvmArgs.trim().split("\\s+"));
    // Each child gets the per-run timeout, plus its warm-up and JVM start.
    Duration childTimeout = timeout.multipliedBy(2).plusMinutes(1);
    BaselineComparison.Launch launch =
        new BaselineComparison.Launch(
            java, jvm, System.getProperty("java.class.path"), baseline, rounds, childTimeout);
    List<String> names = selected.stream().map(Workload::name).toList();
    List<BaselineComparison.Comparison> results =
        BaselineComparison.run(names, ownArgs, passOn, launch, out);
    boolean ok = results.stream().allMatch(BaselineComparison.Comparison::ok);
    out.println(ok ? "verification: OK" : "verification: FAILURE");
    return ok ? 0 : 1;
  }

  /** The thread groups' CPU milliseconds in the measurement, the busiest first. */
  static String threadCpuLine(WorkloadResult r) {
    if (r.threadCpuMs().isEmpty()) {
      return "  thread CPU: not available (needs Linux's /proc/self/task)";
    }
    StringBuilder sb =
        new StringBuilder("  thread CPU in the measurement (ms, wall ")
            .append(Math.round(r.seconds() * 1000))
            .append("):");
    r.threadCpuMs().entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sb.append(' ').append(e.getKey()).append('=').append(e.getValue()));
    return sb.toString();
  }

  /**
   * Returns {@code w} scaled down for a warm-up: nodes, initial and measured pods by the same
   * factor (so a workload that fills nodes, e.g. hostname anti-affinity, stays feasible), at most
   * 1000 nodes and 2000 measured pods.
   */
  static Workload warmup(Workload w) {
    double f = Math.min(1.0, 1000.0 / Math.max(1, w.nodes()));
    f = Math.min(f, 2000.0 / w.measuredPods());
    return w.withSizes(
            Math.max(1, (int) (w.nodes() * f)),
            (int) (w.initPods() * f),
            Math.max(1, (int) (w.measuredPods() * f)))
        .withSteadyStateDuration(Duration.ofSeconds(2));
  }

  static void writeJson(Path file, List<WorkloadResult> results) throws IOException {
    StringBuilder sb = new StringBuilder("[\n");
    for (int i = 0; i < results.size(); i++) {
      sb.append("  ").append(results.get(i).toJson()).append(i + 1 < results.size() ? ",\n" : "\n");
    }
    sb.append("]\n");
    Files.writeString(file, sb.toString());
  }

  static String header() {
    return String.format(
        Locale.ROOT,
        "%-50s %6s %6s %6s %3s %4s %9s %9s %9s %9s %8s %8s %8s %7s %7s %4s %-14s %s",
        "workload",
        "nodes",
        "init",
        "pods",
        "thr",
        "pct",
        "avg pod/s",
        "p50",
        "p90",
        "p99",
        "att p50",
        "att p90",
        "att p99",
        "peakMiB",
        "liveMiB",
        "jthr",
        "busy l/b/c %",
        "result");
  }

  static String row(WorkloadResult r) {
    return String.format(
        Locale.ROOT,
        "%-50s %6d %6d %6d %3d %4s %9.0f %9.0f %9.0f %9.0f %7.3fms %7.3fms %7.3fms %7d %7d %4d %-14s %s",
        r.workload(),
        r.nodes(),
        r.initPods(),
        r.measuredPods(),
        r.threads(),
        r.pctToScore() == 0 ? "auto" : String.valueOf(r.pctToScore()),
        r.podsPerSecAvg(),
        r.p50(),
        r.p90(),
        r.p99(),
        r.attemptP50Ms(),
        r.attemptP90Ms(),
        r.attemptP99Ms(),
        r.peakHeapMiB(),
        r.liveHeapMiB(),
        r.jvmThreads(),
        r.loopBusyPct() + "/" + r.bindBusyPct() + "/" + r.createBusyPct(),
        r.ok() ? "OK" : "FAILURE");
  }
}
