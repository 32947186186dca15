package io.kubesched.cli;

import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.InvalidConfigurationException;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FieldError;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code kubesched} command. */
@Command(
    name = "kubesched",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "The Kubernetes Scheduling Framework for Java: simulate, inspect and run schedulers.",
    subcommands = {
      SimulateCommand.class,
      PluginsCommand.class,
      ExtenderCommand.class,
      RunCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  /** Exit code for invalid input: a bad file, quantity, configuration or option. */
  public static final int EXIT_USAGE = 2;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * Sets the log level of the bundled slf4j-simple backend before the first logger is created:
   * ERROR by default (every problem of a pod is in the report), INFO with one {@code -v}, DEBUG
   * with two. Has no effect once logging started or when another slf4j backend is on the class
   * path.
   */
  static void configureLogging(int verbosity) {
    String level = verbosity >= 2 ? "debug" : verbosity == 1 ? "info" : "error";
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", level);
    System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
  }

  /**
   * Loads {@code config} (the default configuration when {@code null}); on an invalid configuration
   * prints every error with its path on {@code err} and returns {@code null}.
   */
  static KubeSchedulerConfiguration loadConfiguration(
      Path config, PluginRegistry registry, PrintWriter err) {
    try {
      return config == null
          ? ConfigurationLoader.defaults(registry)
          : ConfigurationLoader.load(config, registry);
    } catch (InvalidConfigurationException e) {
      err.println(
          (config == null ? "configuration" : config.toString()) + ": invalid configuration:");
      for (FieldError fe : e.errors()) {
        err.println("  " + fe);
      }
      err.flush();
      return null;
    }
  }

  /** Runs the command line and exits with its code. */
  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code (for tests and embedding). */
  public static int run(String... args) {
    return run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
  }

  /** Runs the command line writing to {@code out} and {@code err}; returns the exit code. */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("kubesched: " + e.getMessage());
          commandLine.getErr().flush();
          return 1;
        });
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) {
      err.println(
          "kubesched: out of memory (maximum heap "
              + Runtime.getRuntime().maxMemory() / (1024 * 1024)
              + " MiB): give the JVM more with KUBESCHED_JAVA_OPTS=-Xmx..., or simulate fewer"
              + " pods (--max-pods)");
      err.flush();
      return 1;
    }
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Prints the version from the jar manifest. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"kubesched " + (v == null ? "0.1.0-SNAPSHOT" : v)};
    }
  }
}
