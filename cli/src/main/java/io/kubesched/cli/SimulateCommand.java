package io.kubesched.cli;

import io.kubesched.cli.manifest.ManifestException;
import io.kubesched.cli.manifest.ManifestLoader;
import io.kubesched.cli.manifest.Manifests;
import io.kubesched.cli.report.HtmlReport;
import io.kubesched.cli.report.JsonReport;
import io.kubesched.cli.report.SimulationReport;
import io.kubesched.cli.report.TableReport;
import io.kubesched.cli.sim.Simulation;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code kubesched simulate}: schedule the pending pods of manifests on an in-memory cluster. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
      "Schedule every pending pod of the given manifests with the real engine on an in-memory"
          + " cluster, on simulated time, and report where each pod went.",
      "Input: multi-document YAML or JSON (Nodes, Pods, Namespaces, PriorityClasses,"
          + " PodDisruptionBudgets, RuntimeClasses, Services, Deployments, ReplicaSets,"
          + " StatefulSets, Jobs, DaemonSets, Lists); `kubectl get nodes,pods -A -o yaml` works"
          + " as is. Objects the API server would refuse are refused (exit code 2)."
    })
public final class SimulateCommand implements Callable<Integer> {
  /** The output formats. */
  public enum Format {
    /** Text tables. */
    table,
    /** JSON. */
    json,
    /** A self-contained HTML report. */
    html
  }

  @Spec CommandSpec spec;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Manifest files.")
  List<Path> files;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "A KubeSchedulerConfiguration (default: the default profile).")
  Path config;

  @Option(
      names = "--seed",
      defaultValue = "0",
      description = "Seed of the random tie-break between equally scored nodes (default: 0).")
  long seed;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: table).")
  Format output;

  @Option(
      names = "--explain",
      paramLabel = "NS/NAME",
      description =
          "Trace the last scheduling attempt of this pod: filter result and scores per" + " node.")
  String explain;

  @Option(
      names = {"-v", "--verbose"},
      description = "Log the scheduler's work on standard error: -v for INFO, -vv for DEBUG.")
  boolean[] verbose = new boolean[0];

  @Mixin FeatureGatesOption featureGates;

  @Option(
      names = "--output-file",
      paramLabel = "FILE",
      description = "Write the report to this file instead of standard output.")
  Path outputFile;

  /**
   * The heap budgeted per simulated pod: twice the measured need (about 8 KiB with everything
   * included, docs/benchmarks.md "Memory per simulated pod"); the default of {@code --max-pods} is
   * the JVM's maximum heap divided by it.
   */
  static final long BYTES_PER_POD = 16 * 1024;

  @Option(
      names = "--max-pods",
      paramLabel = "N",
      description =
          "Refuse inputs that would create more than N pods (default: the maximum heap divided by"
              + " "
              + BYTES_PER_POD / 1024
              + " KiB per pod, ${DEFAULT-VALUE} here).")
  long maxPods = defaultMaxPods();

  /** Returns the default {@code --max-pods} for this JVM's maximum heap. */
  static long defaultMaxPods() {
    return Math.max(1000, Runtime.getRuntime().maxMemory() / BYTES_PER_POD);
  }

  @Override
  public Integer call() {
    Main.configureLogging(verbose.length);
    PrintWriter err = spec.commandLine().getErr();
    FeatureGates gates = featureGates.parse(err);
    if (gates == null) {
      return Main.EXIT_USAGE;
    }
    if (explain != null && !explain.matches("[^/]+/[^/]+")) {
      err.println("--explain: expected NAMESPACE/NAME, got \"" + explain + "\"");
      err.flush();
      return Main.EXIT_USAGE;
    }
    Manifests manifests;
    try {
      manifests = ManifestLoader.load(files);
    } catch (ManifestException e) {
      e.problems().forEach(err::println);
      err.flush();
      return Main.EXIT_USAGE;
    }
    long podCount = io.kubesched.cli.manifest.WorkloadExpander.podCountBound(manifests);
    if (podCount > maxPods) {
      err.println(
          "input: the manifests would create "
              + podCount
              + " pods, more than --max-pods="
              + maxPods
              + " (the default is sized for the JVM's maximum heap of "
              + Runtime.getRuntime().maxMemory() / (1024 * 1024)
              + " MiB); raise --max-pods, and the heap with KUBESCHED_JAVA_OPTS=-Xmx..., to"
              + " simulate more");
      err.flush();
      return Main.EXIT_USAGE;
    }
    for (String w : manifests.warnings()) {
      err.println("warning: " + w);
    }
    int printedWarnings = manifests.warnings().size();
    PluginRegistry registry = PluginRegistry.discover();
    KubeSchedulerConfiguration cfg = Main.loadConfiguration(config, registry, err, gates);
    if (cfg == null) {
      return Main.EXIT_USAGE;
    }
    boolean progress = System.console() != null;
    SimulationReport report;
    try {
      report =
          new Simulation(
                  manifests,
                  cfg,
                  registry,
                  seed,
                  explain,
                  line -> {
                    if (progress) {
                      err.println(line);
                      err.flush();
                    }
                  },
                  gates)
              .run();
    } catch (Simulation.SimulationSetupException e) {
      err.println(
          (config == null ? "configuration" : config.toString()) + ": invalid configuration:");
      err.println("  " + e.getMessage());
      err.flush();
      return Main.EXIT_USAGE;
    }
    for (String w : report.warnings().subList(printedWarnings, report.warnings().size())) {
      err.println("warning: " + w);
    }
    String text =
        switch (output) {
          case table -> TableReport.render(report);
          case json -> JsonReport.render(report) + "\n";
          case html -> HtmlReport.render(report);
        };
    if (outputFile != null) {
      try {
        Files.writeString(outputFile, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println(outputFile + ": cannot write: " + e.getMessage());
        err.flush();
        return Main.EXIT_USAGE;
      }
    } else {
      PrintWriter out = spec.commandLine().getOut();
      out.print(text);
      out.flush();
    }
    err.flush();
    return 0;
  }
}
