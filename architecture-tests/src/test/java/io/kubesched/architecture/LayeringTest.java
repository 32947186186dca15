package io.kubesched.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The modules' layering (ARCHITECTURE.md, "Modules"): a plugin module depends on {@code
 * framework-api} (and the preemption evaluator) only, nothing in {@code framework-api} knows the
 * engine, and only the applications built on the engine (cli, examples, benchmarks, the test kit)
 * use {@code framework-core}, through its public entry points. The main classes of every module are
 * checked; tests may use anything.
 *
 * <p>Modules are told apart by package: {@code io.kubesched.framework} is framework-api, {@code
 * io.kubesched.core} framework-core, {@code io.kubesched.preemption} framework-preemption, {@code
 * io.kubesched.plugins} plugins-builtin and plugins-sample ({@code .sample}), {@code
 * io.kubesched.testing} framework-testing, and {@code io.kubesched.cli}, {@code .examples}, {@code
 * .benchmarks} the applications.
 */
final class LayeringTest {
  private static final String API = "io.kubesched.framework..";
  private static final String CORE = "io.kubesched.core..";
  private static final String RUNTIME = "io.kubesched.core.runtime..";
  private static final String PREEMPTION = "io.kubesched.preemption..";
  private static final String PLUGINS = "io.kubesched.plugins..";
  private static final String SAMPLE_PLUGINS = "io.kubesched.plugins.sample..";

  /** The libraries any module may use: the JDK, client-java, slf4j, Guava. */
  private static final String[] LIBRARIES = {
    "java..", "io.kubernetes.client..", "org.slf4j..", "com.google.common..", "org.jspecify.."
  };

  /**
   * Libraries the built-in plugins may use besides {@link #LIBRARIES}: Google's CEL for Java, for
   * DynamicResources' device selectors.
   */
  private static final String CEL = "dev.cel..";

  /** The modules that are applications of the engine and may use {@code framework-core}. */
  private static final String[] ENGINE_USERS = {
    "io.kubesched.cli..",
    "io.kubesched.examples..",
    "io.kubesched.benchmarks..",
    "io.kubesched.testing.."
  };

  /**
   * The classes of {@code io.kubesched.core.runtime} that the applications may use: building and
   * inspecting a profile's framework (the test kit runs plugins through a real one), the registry,
   * the worker pool, and the results the simulator reports. The rest of the runtime (the scheduling
   * algorithm, the instrumentation, the plugin-run helpers) is the engine's internals. Add a class
   * here only with a reason in its Javadoc that it is meant for embedders.
   */
  private static final Set<String> RUNTIME_ENTRY_POINTS =
      Set.of(
          "Framework",
          "FrameworkContext",
          "PluginRegistry",
          "PluginRegistrationException",
          "ExecutorParallelizer",
          "WaitingPods",
          "FitError",
          "ScheduleResult",
          "NodePluginScores",
          "NodeToStatus",
          "Diagnosis",
          "SchedulerExtender");

  private static JavaClasses main;

  @BeforeAll
  static void importMainClasses() {
    main =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.kubesched");
  }

  @Test
  void everyModuleIsImported() {
    // guards against rules that pass because the classpath lacks a module
    assertThat(main.contain("io.kubesched.framework.FrameworkHandle")).isTrue();
    assertThat(main.contain("io.kubesched.core.runtime.Framework")).isTrue();
    assertThat(main.contain("io.kubesched.preemption.Evaluator")).isTrue();
    assertThat(main.contain("io.kubesched.plugins.defaultpreemption.DefaultPreemption")).isTrue();
    assertThat(main.contain("io.kubesched.plugins.sample.coscheduling.Coscheduling")).isTrue();
    assertThat(main.contain("io.kubesched.cli.Main")).isTrue();
  }

  @Test
  void frameworkApiKnowsNoOtherModule() {
    classes()
        .that()
        .resideInAPackage(API)
        .should()
        .onlyDependOnClassesThat(resideInAnyPackage(concat(LIBRARIES, API)).or(primitive()))
        .because("framework-api is the contract; nothing in it knows the engine")
        .check(main);
  }

  @Test
  void thePreemptionEvaluatorDependsOnFrameworkApiOnly() {
    classes()
        .that()
        .resideInAPackage(PREEMPTION)
        .should()
        .onlyDependOnClassesThat(
            resideInAnyPackage(concat(LIBRARIES, API, PREEMPTION)).or(primitive()))
        .because("the evaluator reaches the engine through FrameworkHandle only")
        .check(main);
  }

  @Test
  void pluginsDependOnFrameworkApiAndThePreemptionEvaluatorOnly() {
    // third-party libraries a plugin needs (CEL for DRA selectors) are the module's business; the
    // rule is that no plugin reaches into the engine or another kubesched module
    noClasses()
        .that()
        .resideInAPackage(PLUGINS)
        .should()
        .dependOnClassesThat(
            resideInAPackage("io.kubesched..")
                .and(not(resideInAnyPackage(API, PREEMPTION, PLUGINS))))
        .because("a plugin module depends on framework-api only (ARCHITECTURE.md)")
        .check(main);
  }

  @Test
  void samplePluginsDoNotUseTheBuiltinPlugins() {
    noClasses()
        .that()
        .resideInAPackage(SAMPLE_PLUGINS)
        .should()
        .dependOnClassesThat(resideInAPackage(PLUGINS).and(not(resideInAPackage(SAMPLE_PLUGINS))))
        .because("plugins-sample depends on framework-api only")
        .check(main);
  }

  @Test
  void onlyTheApplicationsUseTheEngine() {
    noClasses()
        .that()
        .resideOutsideOfPackages(concat(ENGINE_USERS, CORE))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(CORE)
        .because("only cli, examples, benchmarks and framework-testing build on framework-core")
        .check(main);
  }

  @Test
  void theApplicationsUseOnlyTheRuntimesEntryPoints() {
    noClasses()
        .that()
        .resideOutsideOfPackage(CORE)
        .should()
        .dependOnClassesThat(runtimeInternals())
        .because(
            "the runtime's other classes are framework-core internals; see RUNTIME_ENTRY_POINTS")
        .check(main);
  }

  private static DescribedPredicate<JavaClass> runtimeInternals() {
    return DescribedPredicate.describe(
        "are io.kubesched.core.runtime internals (not " + RUNTIME_ENTRY_POINTS + ")",
        c ->
            resideInAPackage(RUNTIME).test(c)
                && !RUNTIME_ENTRY_POINTS.contains(outermost(c).getSimpleName()));
  }

  private static JavaClass outermost(JavaClass c) {
    JavaClass out = c;
    while (out.getEnclosingClass().isPresent()) {
      out = out.getEnclosingClass().get();
    }
    return out;
  }

  /** Primitives and arrays of primitives, which ArchUnit reports in the default package. */
  private static DescribedPredicate<JavaClass> primitive() {
    return DescribedPredicate.describe(
        "are primitive",
        c -> c.isPrimitive() || (c.isArray() && c.getBaseComponentType().isPrimitive()));
  }

  private static String[] concat(String[] first, String... more) {
    String[] out = new String[first.length + more.length];
    System.arraycopy(first, 0, out, 0, first.length);
    System.arraycopy(more, 0, out, first.length, more.length);
    return out;
  }
}
