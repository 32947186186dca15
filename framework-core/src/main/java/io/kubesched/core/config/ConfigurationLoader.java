package io.kubesched.core.config;

import static io.kubesched.framework.validation.FieldErrors.child;
import static io.kubesched.framework.validation.FieldErrors.index;

import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.FeatureGates;
import io.kubesched.framework.FieldError;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.PluginArgs;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.SchedulerConstants;
import io.kubesched.framework.validation.FieldErrors;
import io.kubesched.framework.validation.QualifiedNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Loads a {@code kubescheduler.config.k8s.io/v1} {@code KubeSchedulerConfiguration} from YAML or
 * JSON the way kube-scheduler v1.33 does: strict decoding, then defaulting ({@code
 * SetDefaults_KubeSchedulerConfiguration}: parallelism, profiles, the default plugins merged with
 * each profile's own, default plugin args, leader election, client connection, backoffs,
 * profiling), the extender adjustments kube makes when building the scheduler (ignored managed
 * resources become NodeResourcesFit's {@code ignoredResources}, ignorable extenders go last), and
 * validation ({@code ValidateKubeSchedulerConfiguration}, every plugin's args, and that every
 * enabled plugin is registered).
 *
 * <p>Every problem is reported at once in one {@link InvalidConfigurationException}, each with
 * kube's field path, e.g. {@code profiles[0].pluginConfig[1].args.scoringStrategy.type}.
 */
public final class ConfigurationLoader {
  /** The configuration's {@code kind}. */
  public static final String KIND = "KubeSchedulerConfiguration";

  /** The name a single unnamed profile gets ({@code v1.DefaultSchedulerName}). */
  public static final String DEFAULT_SCHEDULER_NAME = SchedulerConstants.DEFAULT_SCHEDULER_NAME;

  /** The request timeout of an extender whose {@code httpTimeout} is unset or zero. */
  public static final Duration DEFAULT_EXTENDER_TIMEOUT = Duration.ofSeconds(5);

  private static final String INPUT = "<input>";

  /** The plugins removed from v1 ({@code invalidPluginsByVersion}). */
  private static final Set<String> REMOVED_PLUGINS =
      Set.of("AzureDiskLimits", "CinderLimits", "EBSLimits", "GCEPDLimits");

  private ConfigurationLoader() {}

  /**
   * Loads, defaults and validates the configuration in {@code file}.
   *
   * @param file a YAML or JSON file
   * @param registry the available plugins
   * @throws InvalidConfigurationException naming the file when it is missing, unreadable, not valid
   *     YAML (with line and column) or not a valid configuration (with every problem)
   */
  public static KubeSchedulerConfiguration load(Path file, PluginRegistry registry) {
    return load(file, registry, FeatureGates.defaults());
  }

  /**
   * Loads {@code file} as {@link #load(Path, PluginRegistry)} does, with the default plugins of
   * {@code gates} (kube's {@code applyFeatureGates}: DynamicResources before DefaultPreemption when
   * {@code DynamicResourceAllocation} is on).
   */
  public static KubeSchedulerConfiguration load(
      Path file, PluginRegistry registry, FeatureGates gates) {
    Objects.requireNonNull(file, "file must not be null");
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new InvalidConfigurationException(
          file.toString(), List.of(new FieldError(file.toString(), "no such file")));
    } catch (IOException e) {
      throw new InvalidConfigurationException(
          file.toString(), List.of(new FieldError(file.toString(), "cannot read: " + e)));
    }
    return parse(text, file.toString(), registry, gates);
  }

  /**
   * Parses, defaults and validates a configuration given as YAML or JSON text.
   *
   * @throws InvalidConfigurationException with every problem found
   */
  public static KubeSchedulerConfiguration parse(String text, PluginRegistry registry) {
    return parse(text, INPUT, registry);
  }

  /**
   * Returns the configuration kube-scheduler runs with when given no file: one {@code
   * default-scheduler} profile with the {@link DefaultPlugins} and their default args.
   *
   * @throws InvalidConfigurationException when a default plugin is not in {@code registry}
   */
  public static KubeSchedulerConfiguration defaults(PluginRegistry registry) {
    return defaults(registry, FeatureGates.defaults());
  }

  /** Returns the default configuration with the default plugins of {@code gates}. */
  public static KubeSchedulerConfiguration defaults(PluginRegistry registry, FeatureGates gates) {
    return build(V1Types.Configuration.EMPTY, registry, "", gates);
  }

  /**
   * Parses, defaults and validates a configuration given as YAML or JSON text read from {@code
   * source}.
   *
   * @param source names the text in error messages, e.g. a file name or {@code <stdin>}
   * @throws InvalidConfigurationException with every problem found
   */
  public static KubeSchedulerConfiguration parse(
      String text, String source, PluginRegistry registry) {
    return parse(text, source, registry, FeatureGates.defaults());
  }

  /** Parses as {@link #parse(String, String, PluginRegistry)} with the default plugins of gates. */
  public static KubeSchedulerConfiguration parse(
      String text, String source, PluginRegistry registry, FeatureGates gates) {
    Objects.requireNonNull(text, "text must not be null");
    Objects.requireNonNull(registry, "registry must not be null");
    Object doc = readDocument(text, source);
    List<FieldError> errors = new ArrayList<>();
    Map<String, Object> map;
    if (doc instanceof Map<?, ?> m) {
      map = new LinkedHashMap<>(ArgsCodec.asStringMap(m));
    } else if (doc == null) {
      map = new LinkedHashMap<>();
    } else {
      throw new InvalidConfigurationException(
          source, List.of(FieldErrors.invalid(source, doc, "expected a mapping")));
    }
    checkTypeMeta(map.remove("apiVersion"), ArgsCodec.API_VERSION, "apiVersion", errors);
    checkTypeMeta(map.remove("kind"), KIND, "kind", errors);
    var raw =
        (V1Types.Configuration) ArgsCodec.decode(map, V1Types.Configuration.class, "", errors);
    if (!errors.isEmpty()) {
      throw new InvalidConfigurationException(source, errors);
    }
    return build(raw, registry, source, gates);
  }

  private static void checkTypeMeta(
      Object value, String want, String field, List<FieldError> errors) {
    if (value == null) {
      errors.add(FieldErrors.required(field, "must be " + FieldErrors.quote(want)));
    } else if (!want.equals(value)) {
      errors.add(FieldErrors.invalid(field, value, "must be " + FieldErrors.quote(want)));
    }
  }

  private static Object readDocument(String text, String source) {
    String s = text;
    if (s.stripLeading().startsWith("{")) {
      // JSON: tabs are legal whitespace there but not in YAML; valid JSON has none in strings.
      s = s.replace('\t', ' ');
    }
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    try {
      return new Yaml(new SafeConstructor(options)).load(s);
    } catch (MarkedYAMLException e) {
      Mark mark = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
      String where =
          mark == null
              ? source
              : source + ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1);
      String problem = e.getProblem() != null ? e.getProblem() : e.getMessage();
      if (e.getContext() != null && e.getProblem() != null) {
        problem = e.getContext() + ", " + problem;
      }
      throw new InvalidConfigurationException(
          source, List.of(new FieldError(where, "invalid YAML: " + problem)));
    } catch (YAMLException e) {
      throw new InvalidConfigurationException(
          source, List.of(new FieldError(source, "invalid YAML: " + e.getMessage())));
    }
  }

  /** One profile while it is being built: its value plus what validation needs. */
  private record ProfileBuild(
      Profile profile, String path, Plugins custom, List<List<FieldError>> argsErrors) {}

  private static KubeSchedulerConfiguration build(
      V1Types.Configuration raw, PluginRegistry registry, String source, FeatureGates gates) {
    List<FieldError> errors = new ArrayList<>();

    int parallelism = raw.parallelism() == null ? 16 : raw.parallelism();
    List<V1Types.Profile> rawProfiles =
        raw.profiles() == null || raw.profiles().isEmpty()
            ? List.of(V1Types.Profile.EMPTY)
            : new ArrayList<>(raw.profiles());
    if (rawProfiles.size() == 1 && rawProfiles.get(0).schedulerName() == null) {
      V1Types.Profile p = rawProfiles.get(0);
      rawProfiles =
          List.of(
              new V1Types.Profile(
                  DEFAULT_SCHEDULER_NAME,
                  p.percentageOfNodesToScore(),
                  p.plugins(),
                  p.pluginConfig()));
    }
    List<ProfileBuild> builds = new ArrayList<>();
    for (int i = 0; i < rawProfiles.size(); i++) {
      builds.add(buildProfile(index("profiles", i), rawProfiles.get(i), registry, gates));
    }
    int percentage = raw.percentageOfNodesToScore() == null ? 0 : raw.percentageOfNodesToScore();
    KubeSchedulerConfiguration.LeaderElection leaderElection = leaderElection(raw.leaderElection());
    KubeSchedulerConfiguration.ClientConnection clientConnection =
        clientConnection(raw.clientConnection());
    long initialBackoff =
        raw.podInitialBackoffSeconds() == null ? 1 : raw.podInitialBackoffSeconds();
    long maxBackoff = raw.podMaxBackoffSeconds() == null ? 10 : raw.podMaxBackoffSeconds();
    boolean enableProfiling = raw.enableProfiling() == null || raw.enableProfiling();
    boolean enableContentionProfiling =
        raw.enableContentionProfiling() == null ? enableProfiling : raw.enableContentionProfiling();

    List<ExtenderConfig> extenders = new ArrayList<>();
    List<ExtenderConfig> ignorable = new ArrayList<>();
    List<String> ignoredResources = new ArrayList<>();
    for (V1Types.Extender e : raw.extenders()) {
      ExtenderConfig ext = extender(e);
      (ext.ignorable() ? ignorable : extenders).add(ext);
      for (ExtenderConfig.ManagedResource r : ext.managedResources()) {
        if (r.ignoredByScheduler()) {
          ignoredResources.add(r.name());
        }
      }
    }
    List<FieldError> extenderArgsErrors = new ArrayList<>();
    if (!ignoredResources.isEmpty()) {
      builds = applyIgnoredResources(builds, ignoredResources, extenderArgsErrors);
    }
    extenders.addAll(ignorable);

    // Validation, in the order of kube's ValidateKubeSchedulerConfiguration.
    if (clientConnection.burst() < 0) {
      errors.add(
          FieldErrors.invalid(
              "clientConnection.burst", clientConnection.burst(), "must be non-negative"));
    }
    validateLeaderElection(leaderElection, errors);
    if (parallelism <= 0) {
      errors.add(
          FieldErrors.invalid(
              "parallelism", parallelism, "should be an integer value greater than zero"));
    }
    Map<String, Integer> seenNames = new HashMap<>();
    for (int i = 0; i < builds.size(); i++) {
      ProfileBuild b = builds.get(i);
      validateProfile(b, errors);
      String name = b.profile().schedulerName() == null ? "" : b.profile().schedulerName();
      // Like kube, a duplicate is reported against the latest profile with that name.
      Integer prev = seenNames.put(name, i);
      if (prev != null) {
        errors.add(
            FieldErrors.duplicate(
                child(b.path(), "schedulerName"),
                new FieldErrors.Raw(child(index("profiles", prev), "schedulerName"))));
      }
    }
    validateCommonQueueSort(builds, errors);
    validatePercentage("percentageOfNodesToScore", percentage, errors);
    if (initialBackoff <= 0) {
      errors.add(
          FieldErrors.invalid(
              "podInitialBackoffSeconds", initialBackoff, "must be greater than 0"));
    }
    if (maxBackoff < initialBackoff) {
      errors.add(
          FieldErrors.invalid(
              "podMaxBackoffSeconds",
              maxBackoff,
              "must be greater than or equal to PodInitialBackoffSeconds"));
    }
    validateExtenders(raw.extenders(), errors);
    for (ProfileBuild b : builds) {
      validateRegistered(b, registry, errors);
    }
    errors.addAll(extenderArgsErrors);
    if (!errors.isEmpty()) {
      throw new InvalidConfigurationException(source, errors);
    }
    return new KubeSchedulerConfiguration(
        parallelism,
        percentage,
        Duration.ofSeconds(initialBackoff),
        Duration.ofSeconds(maxBackoff),
        builds.stream().map(ProfileBuild::profile).toList(),
        extenders,
        leaderElection,
        clientConnection,
        enableProfiling,
        enableContentionProfiling,
        raw.delayCacheUntilActive() != null && raw.delayCacheUntilActive());
  }

  private static ProfileBuild buildProfile(
      String path, V1Types.Profile raw, PluginRegistry registry, FeatureGates gates) {
    Plugins custom = raw.plugins() == null ? null : plugins(raw.plugins());
    Plugins merged = DefaultPlugins.merge(DefaultPlugins.multiPoint(gates), custom);
    List<PluginConfig> configs = new ArrayList<>();
    List<List<FieldError>> argsErrors = new ArrayList<>();
    Set<String> configured = new java.util.HashSet<>();
    List<V1Types.PluginConfig> rawConfigs = raw.pluginConfig();
    for (int j = 0; j < rawConfigs.size(); j++) {
      V1Types.PluginConfig pc = rawConfigs.get(j);
      String name = pc.name() == null ? "" : pc.name();
      configured.add(name);
      List<FieldError> errs = new ArrayList<>();
      PluginArgs args = null;
      PluginProvider<?> provider = registry.get(name).orElse(null);
      if (provider != null && !REMOVED_PLUGINS.contains(name)) {
        args =
            ArgsCodec.decodeArgs(
                provider, pc.args(), child(index(child(path, "pluginConfig"), j), "args"), errs);
      }
      configs.add(new PluginConfig(name, args == null ? new UndecodedArgs(pc.args()) : args));
      argsErrors.add(errs);
    }
    for (String name : enabledNames(merged)) {
      PluginProvider<?> provider = registry.get(name).orElse(null);
      if (configured.contains(name) || provider == null || !hasArgs(provider)) {
        continue;
      }
      PluginArgs args = provider.defaultArgs();
      String argsPath = child(index(child(path, "pluginConfig"), configs.size()), "args");
      configs.add(new PluginConfig(name, args));
      argsErrors.add(List.copyOf(args.validate(argsPath)));
    }
    Profile profile =
        new Profile(raw.schedulerName(), raw.percentageOfNodesToScore(), merged, configs);
    return new ProfileBuild(profile, path, custom, argsErrors);
  }

  private static boolean hasArgs(PluginProvider<?> provider) {
    Class<?> type = provider.argsType();
    return type != null && type != NoArgs.class && !type.isEnum();
  }

  /** The names enabled at any point, sorted, as kube's {@code pluginsNames}. */
  private static Set<String> enabledNames(Plugins plugins) {
    Set<String> names = new TreeSet<>();
    for (PluginSet set : plugins.byExtensionPoint().values()) {
      for (PluginRef p : set.enabled()) {
        names.add(p.name());
      }
    }
    return names;
  }

  private static Plugins plugins(V1Types.Plugins p) {
    return new Plugins(
        pluginSet(p.preEnqueue()),
        pluginSet(p.queueSort()),
        pluginSet(p.preFilter()),
        pluginSet(p.filter()),
        pluginSet(p.postFilter()),
        pluginSet(p.preScore()),
        pluginSet(p.score()),
        pluginSet(p.reserve()),
        pluginSet(p.permit()),
        pluginSet(p.preBind()),
        pluginSet(p.bind()),
        pluginSet(p.postBind()),
        pluginSet(p.multiPoint()));
  }

  private static PluginSet pluginSet(V1Types.PluginSet s) {
    if (s == null) {
      return PluginSet.empty();
    }
    List<PluginRef> enabled = new ArrayList<>();
    for (V1Types.Plugin p : s.enabled()) {
      enabled.add(new PluginRef(p.name() == null ? "" : p.name(), p.weight()));
    }
    List<PluginRef> disabled = new ArrayList<>();
    for (V1Types.Plugin p : s.disabled()) {
      disabled.add(PluginRef.of(p.name() == null ? "" : p.name()));
    }
    return new PluginSet(enabled, disabled);
  }

  private static KubeSchedulerConfiguration.LeaderElection leaderElection(
      V1Types.LeaderElection raw) {
    V1Types.LeaderElection le =
        raw == null ? new V1Types.LeaderElection(null, null, null, null, null, null, null) : raw;
    return new KubeSchedulerConfiguration.LeaderElection(
        le.leaderElect() == null || le.leaderElect(),
        orDefault(le.leaseDuration(), Duration.ofSeconds(15)),
        orDefault(le.renewDeadline(), Duration.ofSeconds(10)),
        orDefault(le.retryPeriod(), Duration.ofSeconds(2)),
        orDefault(le.resourceLock(), "leases"),
        orDefault(le.resourceName(), "kube-scheduler"),
        orDefault(le.resourceNamespace(), "kube-system"));
  }

  private static KubeSchedulerConfiguration.ClientConnection clientConnection(
      V1Types.ClientConnection raw) {
    V1Types.ClientConnection cc =
        raw == null ? new V1Types.ClientConnection(null, null, null, null, null) : raw;
    return new KubeSchedulerConfiguration.ClientConnection(
        cc.kubeconfig() == null ? "" : cc.kubeconfig(),
        cc.acceptContentTypes() == null ? "" : cc.acceptContentTypes(),
        orDefault(cc.contentType(), "application/vnd.kubernetes.protobuf"),
        cc.qps() == null || cc.qps() == 0f ? 50f : cc.qps(),
        cc.burst() == null || cc.burst() == 0 ? 100 : cc.burst());
  }

  private static Duration orDefault(Duration d, Duration dflt) {
    return d == null || d.isZero() ? dflt : d;
  }

  private static String orDefault(String s, String dflt) {
    return s == null || s.isEmpty() ? dflt : s;
  }

  private static ExtenderConfig extender(V1Types.Extender e) {
    String url = e.urlPrefix() == null ? "" : e.urlPrefix();
    int end = url.length();
    while (end > 0 && url.charAt(end - 1) == '/') {
      end--;
    }
    List<ExtenderConfig.ManagedResource> resources = new ArrayList<>();
    for (V1Types.ManagedResource r : e.managedResources()) {
      resources.add(
          new ExtenderConfig.ManagedResource(
              r.name() == null ? "" : r.name(), Boolean.TRUE.equals(r.ignoredByScheduler())));
    }
    return new ExtenderConfig(
        url.substring(0, end),
        nullToEmpty(e.filterVerb()),
        nullToEmpty(e.preemptVerb()),
        nullToEmpty(e.prioritizeVerb()),
        nullToEmpty(e.bindVerb()),
        e.weight() == null ? 0 : e.weight(),
        Boolean.TRUE.equals(e.enableHTTPS()),
        e.httpTimeout() == null || e.httpTimeout().isZero()
            ? DEFAULT_EXTENDER_TIMEOUT
            : e.httpTimeout(),
        Boolean.TRUE.equals(e.nodeCacheCapable()),
        resources,
        Boolean.TRUE.equals(e.ignorable()),
        e.tlsConfig());
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /**
   * Replaces NodeResourcesFit's {@code ignoredResources} in every profile by the extenders' ignored
   * managed resources, as kube's {@code buildExtenders} does (it replaces, not appends).
   */
  private static List<ProfileBuild> applyIgnoredResources(
      List<ProfileBuild> builds, List<String> ignored, List<FieldError> errors) {
    List<ProfileBuild> out = new ArrayList<>();
    for (ProfileBuild b : builds) {
      List<PluginConfig> configs = new ArrayList<>(b.profile().pluginConfig());
      int k = -1;
      for (int i = 0; i < configs.size(); i++) {
        if (configs.get(i).name().equals(DefaultPlugins.NODE_RESOURCES_FIT)) {
          k = i;
          break;
        }
      }
      String configPath = child(b.path(), "pluginConfig");
      if (k < 0) {
        errors.add(new FieldError(configPath, "can't find NodeResourcesFitArgs in plugin config"));
        out.add(b);
        continue;
      }
      PluginArgs args = configs.get(k).args();
      Object encoded = ArgsCodec.encode(args);
      if (args instanceof UndecodedArgs || !(encoded instanceof Map<?, ?>)) {
        errors.add(
            new FieldError(
                index(configPath, k),
                "want args to be of type NodeResourcesFitArgs, got " + args.getClass().getName()));
        out.add(b);
        continue;
      }
      Map<String, Object> m = new LinkedHashMap<>(ArgsCodec.asStringMap(encoded));
      m.put("ignoredResources", List.copyOf(ignored));
      Object replaced =
          ArgsCodec.decode(m, args.getClass(), child(index(configPath, k), "args"), errors);
      if (replaced instanceof PluginArgs pa) {
        configs.set(k, new PluginConfig(DefaultPlugins.NODE_RESOURCES_FIT, pa));
      }
      Profile p = b.profile();
      out.add(
          new ProfileBuild(
              new Profile(p.schedulerName(), p.percentageOfNodesToScore(), p.plugins(), configs),
              b.path(),
              b.custom(),
              b.argsErrors()));
    }
    return out;
  }

  private static void validateLeaderElection(
      KubeSchedulerConfiguration.LeaderElection le, List<FieldError> errors) {
    if (!le.leaderElect()) {
      return;
    }
    String p = "leaderElection";
    if (le.leaseDuration().isNegative() || le.leaseDuration().isZero()) {
      errors.add(
          FieldErrors.invalid(
              child(p, "leaseDuration"),
              goDuration(le.leaseDuration()),
              "must be greater than zero"));
    }
    if (le.renewDeadline().isNegative() || le.renewDeadline().isZero()) {
      errors.add(
          FieldErrors.invalid(
              child(p, "renewDeadline"),
              goDuration(le.renewDeadline()),
              "must be greater than zero"));
    }
    if (le.retryPeriod().isNegative() || le.retryPeriod().isZero()) {
      errors.add(
          FieldErrors.invalid(
              child(p, "retryPeriod"), goDuration(le.retryPeriod()), "must be greater than zero"));
    }
    if (le.leaseDuration().compareTo(le.renewDeadline()) <= 0) {
      errors.add(
          FieldErrors.invalid(
              child(p, "leaseDuration"),
              goDuration(le.renewDeadline()),
              "LeaseDuration must be greater than RenewDeadline"));
    }
    if (!"leases".equals(le.resourceLock())) {
      errors.add(
          FieldErrors.invalid(
              child(p, "resourceLock"),
              le.resourceLock(),
              "resourceLock value must be \"leases\""));
    }
  }

  /** Renders a duration in a field error as Go prints a {@code time.Duration} ({@code 10s}). */
  private static FieldErrors.Raw goDuration(Duration d) {
    return new FieldErrors.Raw(GoDuration.format(d));
  }

  private static void validatePercentage(String path, Integer value, List<FieldError> errors) {
    if (value != null && (value < 0 || value > 100)) {
      errors.add(FieldErrors.invalid(path, value, "not in valid range [0-100]"));
    }
  }

  private static void validateProfile(ProfileBuild b, List<FieldError> errors) {
    Profile profile = b.profile();
    if (profile.schedulerName() == null || profile.schedulerName().isEmpty()) {
      errors.add(FieldErrors.required(child(b.path(), "schedulerName"), ""));
    }
    validatePercentage(
        child(b.path(), "percentageOfNodesToScore"), profile.percentageOfNodesToScore(), errors);
    String pluginsPath = child(b.path(), "plugins");
    for (Map.Entry<String, PluginSet> e : profile.plugins().byExtensionPoint().entrySet()) {
      if (e.getKey().equals("multiPoint")) {
        continue;
      }
      List<PluginRef> enabled = e.getValue().enabled();
      for (int i = 0; i < enabled.size(); i++) {
        if (REMOVED_PLUGINS.contains(enabled.get(i).name())) {
          errors.add(
              removedPlugin(
                  index(child(child(pluginsPath, e.getKey()), "enabled"), i),
                  enabled.get(i).name()));
        }
      }
    }
    Set<String> seen = new java.util.HashSet<>();
    List<PluginConfig> configs = profile.pluginConfig();
    for (int j = 0; j < configs.size(); j++) {
      String path = index(child(b.path(), "pluginConfig"), j);
      String name = configs.get(j).name();
      if (!seen.add(name)) {
        errors.add(FieldErrors.duplicate(path, name));
      }
      if (REMOVED_PLUGINS.contains(name)) {
        errors.add(removedPlugin(path, name));
      } else if (j < b.argsErrors().size()) {
        errors.addAll(b.argsErrors().get(j));
      }
    }
  }

  private static FieldError removedPlugin(String path, String name) {
    return FieldErrors.invalid(
        path,
        name,
        "was invalid in version "
            + FieldErrors.quote(ArgsCodec.API_VERSION)
            + " (KubeSchedulerConfiguration is version "
            + FieldErrors.quote(ArgsCodec.API_VERSION)
            + ")");
  }

  private static void validateCommonQueueSort(List<ProfileBuild> builds, List<FieldError> errors) {
    Profile first = builds.get(0).profile();
    PluginSet canon = first.plugins().queueSort();
    String queueSortName = canon.enabled().isEmpty() ? "" : canon.enabled().get(0).name();
    if (canon.enabled().size() > 1) {
      errors.add(
          FieldErrors.invalid(
              "profiles[0].plugins.queueSort.Enabled",
              canon.enabled().size(),
              "only one queue sort plugin can be enabled"));
    }
    PluginArgs queueSortArgs = null;
    for (PluginConfig c : first.pluginConfig()) {
      if (!queueSortName.isEmpty() && c.name().equals(queueSortName)) {
        queueSortArgs = c.args();
      }
    }
    for (int i = 1; i < builds.size(); i++) {
      Profile p = builds.get(i).profile();
      PluginSet curr = p.plugins().queueSort();
      if (!canon.equals(curr)) {
        errors.add(
            FieldErrors.invalid(
                child(index("profiles", i), "plugins.queueSort"),
                new FieldErrors.Raw(describe(curr)),
                "must be the same for all profiles"));
      }
      for (PluginConfig c : p.pluginConfig()) {
        if (c.name().equals(queueSortName) && !Objects.equals(queueSortArgs, c.args())) {
          errors.add(
              FieldErrors.invalid(
                  child(index("profiles", i), "pluginConfig.args"),
                  new FieldErrors.Raw(String.valueOf(c.args())),
                  "queueSort must be the same for all profiles"));
        }
      }
    }
  }

  private static String describe(PluginSet s) {
    return "{enabled: "
        + s.enabled().stream().map(PluginRef::name).toList()
        + ", disabled: "
        + s.disabled().stream().map(PluginRef::name).toList()
        + "}";
  }

  private static void validateExtenders(List<V1Types.Extender> extenders, List<FieldError> errors) {
    int binders = 0;
    Set<String> managed = new java.util.HashSet<>();
    for (int i = 0; i < extenders.size(); i++) {
      V1Types.Extender e = extenders.get(i);
      String path = index("extenders", i);
      long weight = e.weight() == null ? 0 : e.weight();
      if (e.prioritizeVerb() != null && !e.prioritizeVerb().isEmpty() && weight <= 0) {
        errors.add(
            FieldErrors.invalid(
                child(path, "weight"), weight, "must have a positive weight applied to it"));
      }
      if (e.bindVerb() != null && !e.bindVerb().isEmpty()) {
        binders++;
      }
      for (int j = 0; j < e.managedResources().size(); j++) {
        String name = e.managedResources().get(j).name();
        name = name == null ? "" : name;
        String namePath = child(index(child(path, "managedResources"), j), "name");
        errors.addAll(QualifiedNames.validateExtendedResourceName(namePath, name));
        if (!managed.add(name)) {
          errors.add(
              FieldErrors.invalid(namePath, name, "duplicate extender managed resource name"));
        }
      }
    }
    if (binders > 1) {
      errors.add(
          FieldErrors.invalid(
              "extenders",
              "found " + binders + " extenders implementing bind",
              "only one extender can implement bind"));
    }
  }

  /** Every enabled plugin must be registered (kube fails building the framework otherwise). */
  private static void validateRegistered(
      ProfileBuild b, PluginRegistry registry, List<FieldError> errors) {
    Map<String, PluginSet> custom = b.custom() == null ? Map.of() : b.custom().byExtensionPoint();
    Set<String> reported = new java.util.HashSet<>();
    for (Map.Entry<String, PluginSet> e : b.profile().plugins().byExtensionPoint().entrySet()) {
      List<PluginRef> enabled = e.getValue().enabled();
      for (int i = 0; i < enabled.size(); i++) {
        String name = enabled.get(i).name();
        if (registry.contains(name)
            || REMOVED_PLUGINS.contains(name)
            || !reported.add(e.getKey() + "/" + name)) {
          continue;
        }
        int idx = i;
        PluginSet userSet = custom.get(e.getKey());
        if (userSet != null) {
          for (int j = 0; j < userSet.enabled().size(); j++) {
            if (userSet.enabled().get(j).name().equals(name)) {
              idx = j;
              break;
            }
          }
        }
        errors.add(
            FieldErrors.invalid(
                index(child(child(child(b.path(), "plugins"), e.getKey()), "enabled"), idx),
                name,
                "plugin is not registered; available plugins: "
                    + String.join(", ", registry.names())));
      }
    }
  }
}
