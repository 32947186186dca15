package io.kubesched.cli;

import io.kubesched.core.config.ConfigurationLoader;
import io.kubesched.core.config.InvalidConfigurationException;
import io.kubesched.core.config.KubeSchedulerConfiguration;
import io.kubesched.core.runtime.PluginRegistrationException;
import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FieldError;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceConfigurationError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

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

  @Option(
      names = "--plugins",
      paramLabel = "DIR_OR_JAR[,...]",
      scope = ScopeType.INHERIT,
      description =
          "Load plugin jars: jar files and directories of jar files, comma-separated, in a class"
              + " loader of their own (default: $KUBESCHED_PLUGINS).")
  String plugins;

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
    return loadConfiguration(config, registry, err, io.kubesched.framework.FeatureGates.defaults());
  }

  /** As {@link #loadConfiguration(Path, PluginRegistry, PrintWriter)}, with the gates' defaults. */
  static KubeSchedulerConfiguration loadConfiguration(
      Path config,
      PluginRegistry registry,
      PrintWriter err,
      io.kubesched.framework.FeatureGates gates) {
    try {
      return config == null
          ? ConfigurationLoader.defaults(registry, gates)
          : ConfigurationLoader.load(config, registry, gates);
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
    return run(out, err, System.getenv(), args);
  }

  /**
   * Runs the command line writing to {@code out} and {@code err}, reading {@link PluginJars#ENV}
   * from {@code env}; returns the exit code.
   */
  static int run(PrintWriter out, PrintWriter err, Map<String, String> env, String... args) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> {
          commandLine.getErr().println("kubesched: " + e.getMessage());
          commandLine.getErr().flush();
          return e instanceof PluginRegistrationException ? EXIT_USAGE : 1;
        });
    try {
      cl.setExecutionStrategy(parseResult -> executeWithPlugins(parseResult, env));
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

  /**
   * Runs the parsed subcommand with the plugin jars of {@code --plugins} (or {@link
   * PluginJars#ENV}) as the thread's context class loader, which {@link PluginRegistry#discover()}
   * and every thread the command starts use; restores the previous loader and closes the jars
   * after.
   */
  private static int executeWithPlugins(
      CommandLine.ParseResult parseResult, Map<String, String> env) {
    String spec = null;
    for (CommandLine.ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
      spec = pr.matchedOptionValue("--plugins", spec);
    }
    if (spec == null) {
      spec = env.get(PluginJars.ENV);
    }
    if (spec == null || spec.isBlank()) {
      return new CommandLine.RunLast().execute(parseResult);
    }
    PrintWriter err = parseResult.commandSpec().commandLine().getErr();
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    PluginJars jars;
    try {
      jars = PluginJars.open(spec, Main.class.getClassLoader());
    } catch (IllegalArgumentException e) {
      err.println("kubesched: --plugins: " + e.getMessage());
      err.flush();
      return EXIT_USAGE;
    }
    try (jars) {
      thread.setContextClassLoader(jars.classLoader());
      return new CommandLine.RunLast().execute(parseResult);
    } catch (ServiceConfigurationError e) {
      // A provider listed in a plugin jar that cannot be loaded or instantiated.
      err.println("kubesched: --plugins: " + e.getMessage());
      err.flush();
      return EXIT_USAGE;
    } finally {
      thread.setContextClassLoader(previous);
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
