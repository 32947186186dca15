package io.kubesched.benchmarks.workload;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The comparison mode of {@code workloads}: each selected workload runs alternately with this build
 * and with another build's benchmarks jar (the baseline), each run in a fresh JVM, for a number of
 * rounds; the medians of both sides and their ratio are printed.
 *
 * <p>Both sides run the same {@code workloads} sub-command with the same options (sizes, threads,
 * percentage, warm-up), one workload per JVM, so each build runs with its own default profile and
 * its own code. A run that fails its verification, crashes or times out counts as failed, its
 * figure is left out of the medians, and the command exits with status 1. A workload the baseline
 * build does not have (its {@code workloads} says {@value #NO_MATCH}..., exit 2: a workload added
 * since) is run on this build only and reported as not in the baseline, without failing the
 * comparison.
 */
public final class BaselineComparison {

  /** The start of what {@code workloads} prints, exiting with 2, for a name it does not have. */
  static final String NO_MATCH = "no workload matches ";

  /**
   * How to launch the two sides.
   *
   * @param java the {@code java} executable
   * @param jvmArgs the JVM options of every child (e.g. {@code -Xmx2g})
   * @param ownClasspath the class path of this build's benchmarks
   * @param baselineClasspath the baseline build's benchmarks jar (or class path)
   * @param rounds the number of rounds; each runs this build, then the baseline
   * @param timeout the bound on one child run
   */
  public record Launch(
      String java,
      List<String> jvmArgs,
      String ownClasspath,
      String baselineClasspath,
      int rounds,
      Duration timeout) {
    /** Validates and copies the lists. */
    public Launch {
      jvmArgs = List.copyOf(jvmArgs);
      if (rounds < 1) {
        throw new IllegalArgumentException("--rounds must be at least 1, got " + rounds);
      }
    }
  }

  /**
   * The outcome of one workload over every round.
   *
   * @param workload the workload's name
   * @param own this build's pods/s per round (NaN: the run failed)
   * @param baseline the baseline's pods/s per round (NaN: the run failed)
   * @param ownCpu this build's pods per second of scheduling-loop CPU time per round ({@code
   *     podsPerLoopCpuSec}: the figure least disturbed by other processes on the machine)
   * @param baselineCpu the baseline's
   * @param notInBaseline whether the baseline build does not have this workload (its lists are then
   *     empty)
   */
  public record Comparison(
      String workload,
      List<Double> own,
      List<Double> baseline,
      List<Double> ownCpu,
      List<Double> baselineCpu,
      boolean notInBaseline) {
    /** Copies the lists. */
    public Comparison {
      own = List.copyOf(own);
      baseline = List.copyOf(baseline);
      ownCpu = List.copyOf(ownCpu);
      baselineCpu = List.copyOf(baselineCpu);
    }

    /** A comparison of a workload both builds have. */
    public Comparison(
        String workload,
        List<Double> own,
        List<Double> baseline,
        List<Double> ownCpu,
        List<Double> baselineCpu) {
      this(workload, own, baseline, ownCpu, baselineCpu, false);
    }

    /** Returns the ratio of the medians of pods per loop-CPU-second (this build / baseline). */
    public double cpuRatio() {
      return median(ownCpu) / median(baselineCpu);
    }

    /** Returns the median of this build's successful rounds (NaN if none). */
    public double ownMedian() {
      return median(own);
    }

    /** Returns the median of the baseline's successful rounds (NaN if none). */
    public double baselineMedian() {
      return median(baseline);
    }

    /** Returns this build's median over the baseline's (above 1: this build is faster). */
    public double ratio() {
      return ownMedian() / baselineMedian();
    }

    /**
     * Returns whether every run of both sides succeeded (of this build's only, for a workload not
     * in the baseline).
     */
    public boolean ok() {
      return own.stream().noneMatch(d -> d.isNaN()) && baseline.stream().noneMatch(d -> d.isNaN());
    }
  }

  private BaselineComparison() {}

  /**
   * Runs every workload of {@code workloads} in alternation on both sides (this build first in each
   * round), prints one line per run and a summary table, and returns the results.
   *
   * @param workloads the workloads' names
   * @param ownArgs the {@code workloads} options of this build's children besides {@code
   *     --workload} and {@code --json}
   * @param baselineArgs the same for the baseline's children
   */
  public static List<Comparison> run(
      List<String> workloads,
      List<String> ownArgs,
      List<String> baselineArgs,
      Launch launch,
      PrintStream out)
      throws IOException {
    List<Comparison> results = new ArrayList<>();
    Path dir = Files.createTempDirectory("kubesched-compare");
    try {
      for (String w : workloads) {
        List<Double> own = new ArrayList<>();
        List<Double> base = new ArrayList<>();
        List<Double> ownCpu = new ArrayList<>();
        List<Double> baseCpu = new ArrayList<>();
        boolean notInBaseline = false;
        for (int r = 0; r < launch.rounds(); r++) {
          double[] o =
              runOnce(launch.ownClasspath(), "this build", w, r, ownArgs, launch, dir, out);
          if (o == null) {
            o = new double[] {Double.NaN, Double.NaN}; // this build lacks it: a failure
          }
          own.add(o[0]);
          ownCpu.add(o[1]);
          if (notInBaseline) {
            continue;
          }
          double[] b =
              runOnce(launch.baselineClasspath(), "baseline", w, r, baselineArgs, launch, dir, out);
          if (b == null) {
            notInBaseline = true;
            base.clear();
            baseCpu.clear();
            continue;
          }
          base.add(b[0]);
          baseCpu.add(b[1]);
        }
        results.add(new Comparison(w, own, base, ownCpu, baseCpu, notInBaseline));
      }
    } finally {
      try (var files = Files.list(dir)) {
        for (Path p : files.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(dir);
    }
    out.println();
    out.println(summaryHeader());
    for (Comparison c : results) {
      out.println(summaryRow(c));
    }
    return results;
  }

  /**
   * Runs {@code workload} once on one side; returns its pods/s and pods per loop-CPU-second (NaN
   * when the run failed), or null when that build has no such workload.
   */
  private static double[] runOnce(
      String classpath,
      String side,
      String workload,
      int round,
      List<String> childArgs,
      Launch launch,
      Path dir,
      PrintStream out)
      throws IOException {
    Path json = dir.resolve("run.json");
    Path log = dir.resolve("run.log");
    Files.deleteIfExists(json);
    List<String> cmd = command(launch, classpath, workload, childArgs, json);
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    // --workload is a substring match, so a child may select more workloads than the one asked
    // for (TopologySpreading is in PreferredTopologySpreading's name): it writes its JSON after
    // each workload, and is stopped as soon as the asked one is there.
    long deadline = System.nanoTime() + launch.timeout().toNanos();
    Optional<Optional<Double>> found = Optional.empty();
    double cpu = Double.NaN;
    boolean exited = false;
    try {
      while (found.isEmpty() && !exited && System.nanoTime() < deadline) {
        exited = p.waitFor(200, TimeUnit.MILLISECONDS);
        if (Files.exists(json)) {
          String text = Files.readString(json, StandardCharsets.UTF_8);
          found = result(text, workload);
          cpu = figure(text, workload, "podsPerLoopCpuSec");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while running " + workload, e);
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly();
      }
    }
    if (found.isEmpty() && exited && p.exitValue() == 2 && unknownWorkload(log, workload)) {
      out.printf(
          Locale.ROOT,
          "round %d  %-10s  %-50s %9s pods/s %9s pods/loop-CPU-s  %s%n",
          round + 1,
          side,
          workload,
          "-",
          "-",
          "SKIPPED (not in that build)");
      return null;
    }
    double value = found.flatMap(f -> f).orElse(Double.NaN);
    String status =
        found.isPresent()
            ? (found.get().isPresent() ? "OK" : "FAILURE (verification)")
            : exited ? "FAILURE (exit " + p.exitValue() + ")" : "TIMEOUT";
    out.printf(
        Locale.ROOT,
        "round %d  %-10s  %-50s %9s pods/s %9s pods/loop-CPU-s  %s%n",
        round + 1,
        side,
        workload,
        fmt(value, "%.0f"),
        fmt(Double.isNaN(value) ? Double.NaN : cpu, "%.0f"),
        status);
    if (Double.isNaN(value)) {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      for (String line : lines.subList(Math.max(0, lines.size() - 10), lines.size())) {
        out.println("    | " + line);
      }
    }
    return new double[] {value, Double.isNaN(value) ? Double.NaN : cpu};
  }

  /** Returns whether a child's log says it has no workload named {@code workload}. */
  static boolean unknownWorkload(Path log, String workload) throws IOException {
    return Files.readAllLines(log, StandardCharsets.UTF_8).contains(NO_MATCH + workload);
  }

  /** Returns the numeric field {@code name} of {@code workload}'s result, NaN when absent. */
  static double figure(String json, String workload, String name) {
    try {
      for (JsonElement e : JsonParser.parseString(json).getAsJsonArray()) {
        JsonObject o = e.getAsJsonObject();
        if (o.has("workload") && o.get("workload").getAsString().equals(workload) && o.has(name)) {
          return o.get(name).getAsDouble();
        }
      }
    } catch (RuntimeException e) {
      // being written
    }
    return Double.NaN;
  }

  /** Returns the command line of one child run. */
  static List<String> command(
      Launch launch, String classpath, String workload, List<String> childArgs, Path json) {
    List<String> cmd = new ArrayList<>();
    cmd.add(launch.java());
    cmd.addAll(launch.jvmArgs());
    cmd.add("-cp");
    cmd.add(classpath);
    cmd.add("io.kubesched.benchmarks.Main");
    cmd.add("workloads");
    cmd.add("--workload");
    cmd.add(workload);
    cmd.addAll(childArgs);
    cmd.add("--json");
    cmd.add(json.toString());
    return cmd;
  }

  /**
   * Returns the average pods/s of {@code workload} in a {@code workloads --json} file: empty when
   * the workload is not (yet) there, an empty inner value when its run failed its verification.
   */
  static Optional<Optional<Double>> result(String json, String workload) {
    JsonElement root;
    try {
      root = JsonParser.parseString(json);
    } catch (RuntimeException e) {
      return Optional.empty(); // being written
    }
    if (!root.isJsonArray()) {
      return Optional.empty();
    }
    for (JsonElement e : root.getAsJsonArray()) {
      JsonObject o = e.getAsJsonObject();
      if (o.has("workload")
          && o.get("workload").getAsString().equals(workload)
          && o.has("podsPerSecAvg")) {
        boolean verified = !o.has("verified") || o.get("verified").getAsBoolean();
        return Optional.of(
            verified ? Optional.of(o.get("podsPerSecAvg").getAsDouble()) : Optional.empty());
      }
    }
    return Optional.empty();
  }

  /** Returns the median of the non-NaN values, NaN when there is none. */
  static double median(List<Double> values) {
    double[] v =
        values.stream().mapToDouble(Double::doubleValue).filter(d -> !Double.isNaN(d)).toArray();
    Arrays.sort(v);
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  static String summaryHeader() {
    return String.format(
        Locale.ROOT,
        "%-50s %12s %12s %7s %10s %10s %7s  %s",
        "workload",
        "this pods/s",
        "base pods/s",
        "ratio",
        "this /cpu-s",
        "base /cpu-s",
        "ratio",
        "rounds pods/s (this | baseline)");
  }

  static String summaryRow(Comparison c) {
    List<String> own = new ArrayList<>();
    c.own().forEach(d -> own.add(fmt(d, "%.0f")));
    List<String> base = new ArrayList<>();
    c.baseline().forEach(d -> base.add(fmt(d, "%.0f")));
    return String.format(
        Locale.ROOT,
        "%-50s %12s %12s %7s %10s %10s %7s  %s | %s",
        c.workload(),
        fmt(c.ownMedian(), "%.0f"),
        c.notInBaseline() ? "not in base" : fmt(c.baselineMedian(), "%.0f"),
        fmt(c.ratio(), "%.2f"),
        fmt(median(c.ownCpu()), "%.0f"),
        fmt(median(c.baselineCpu()), "%.0f"),
        fmt(c.cpuRatio(), "%.2f"),
        String.join(" ", own),
        String.join(" ", base));
  }

  private static String fmt(double d, String f) {
    return Double.isNaN(d) || Double.isInfinite(d) ? "-" : String.format(Locale.ROOT, f, d);
  }
}
