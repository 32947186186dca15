package io.kubesched.core.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Writes a configuration back as a {@code kubescheduler.config.k8s.io/v1} YAML document with every
 * default filled in, as kube-scheduler's {@code --write-config-to} does: the profiles with their
 * plugin sets as given (kube also keeps them as given) and the arguments of every configured
 * plugin, decoded and defaulted, with their {@code apiVersion} and {@code kind}. {@link
 * ConfigurationLoader} reads the result back into an equal value.
 */
public final class ConfigurationWriter {
  private ConfigurationWriter() {}

  /** Returns {@code cfg} as YAML. */
  public static String toYaml(KubeSchedulerConfiguration cfg) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("apiVersion", ArgsCodec.API_VERSION);
    doc.put("kind", ConfigurationLoader.KIND);
    doc.put("parallelism", cfg.parallelism());
    doc.put("percentageOfNodesToScore", cfg.percentageOfNodesToScore());
    doc.put("podInitialBackoffSeconds", cfg.podInitialBackoff().toSeconds());
    doc.put("podMaxBackoffSeconds", cfg.podMaxBackoff().toSeconds());
    doc.put("enableProfiling", cfg.enableProfiling());
    doc.put("enableContentionProfiling", cfg.enableContentionProfiling());
    doc.put("delayCacheUntilActive", cfg.delayCacheUntilActive());
    doc.put("leaderElection", plain(ArgsCodec.encode(cfg.leaderElection())));
    doc.put("clientConnection", plain(ArgsCodec.encode(cfg.clientConnection())));
    List<Object> profiles = new ArrayList<>();
    for (Profile p : cfg.profiles()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("schedulerName", p.schedulerName());
      if (p.percentageOfNodesToScore() != null) {
        m.put("percentageOfNodesToScore", p.percentageOfNodesToScore());
      }
      Map<String, Object> plugins = new LinkedHashMap<>();
      p.plugins()
          .byExtensionPoint()
          .forEach(
              (point, set) -> {
                if (!set.enabled().isEmpty() || !set.disabled().isEmpty()) {
                  plugins.put(point, plain(ArgsCodec.encode(set)));
                }
              });
      m.put("plugins", plugins);
      List<Object> pluginConfig = new ArrayList<>();
      for (PluginConfig pc : p.pluginConfig()) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", pc.name());
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("apiVersion", ArgsCodec.API_VERSION);
        args.put("kind", pc.name() + "Args");
        if (plain(ArgsCodec.encode(pc.args())) instanceof Map<?, ?> fields) {
          fields.forEach((k, v) -> args.put(String.valueOf(k), v));
        }
        entry.put("args", args);
        pluginConfig.add(entry);
      }
      m.put("pluginConfig", pluginConfig);
      profiles.add(m);
    }
    doc.put("profiles", profiles);
    if (!cfg.extenders().isEmpty()) {
      doc.put("extenders", plain(ArgsCodec.encode(cfg.extenders())));
    }
    DumperOptions o = new DumperOptions();
    o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    o.setIndicatorIndent(0);
    return new Yaml(o).dump(doc);
  }

  /**
   * Turns durations into Go duration strings, enums into their YAML spelling and floats into plain
   * numbers, recursively.
   */
  private static Object plain(Object v) {
    if (v instanceof Duration d) {
      return GoDuration.format(d);
    }
    if (v instanceof Enum<?> e) {
      return e.toString();
    }
    if (v instanceof Float f) {
      return f.doubleValue();
    }
    if (v instanceof Map<?, ?> m) {
      Map<String, Object> out = new LinkedHashMap<>();
      m.forEach((k, x) -> out.put(String.valueOf(k), plain(x)));
      return out;
    }
    if (v instanceof List<?> l) {
      List<Object> out = new ArrayList<>(l.size());
      l.forEach(x -> out.add(plain(x)));
      return out;
    }
    return v;
  }
}
