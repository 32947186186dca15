package io.kubesched.benchmarks;

import io.kubesched.benchmarks.extender.ExtenderBenchmark;
import io.kubesched.benchmarks.fenzo.FenzoComparison;
import io.kubesched.benchmarks.workload.WorkloadsCommand;
import java.util.Arrays;

/**
 * The benchmarks' entry point: {@code jmh [JMH options]} runs the micro-benchmarks, {@code
 * workloads [options]} the scheduler_perf workloads, {@code fenzo [options]} the side-by-side
 * comparison with Netflix Fenzo, {@code extender [options]} the extender server under load.
 */
public final class Main {
  private Main() {}

  /** Dispatches to the sub-command. */
  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      System.err.println(
          "usage: benchmarks (jmh [JMH options] | workloads [options] | fenzo [options]"
              + " | extender [options])");
      System.exit(2);
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "jmh" -> org.openjdk.jmh.Main.main(rest);
      case "workloads" -> System.exit(WorkloadsCommand.run(rest, System.out));
      case "fenzo" -> System.exit(FenzoComparison.run(rest, System.out));
      case "extender" -> System.exit(ExtenderBenchmark.run(rest, System.out));
      default -> {
        System.err.println("unknown sub-command: " + args[0]);
        System.exit(2);
      }
    }
  }
}
