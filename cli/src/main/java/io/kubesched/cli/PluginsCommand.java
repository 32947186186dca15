package io.kubesched.cli;

import io.kubesched.core.runtime.PluginRegistry;
import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScorePlugin;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code kubesched plugins}: the plugins found on the class path and in the {@code --plugins} jars,
 * each with the jar it came from.
 */
@Command(
    name = "plugins",
    mixinStandardHelpOptions = true,
    description =
        "List the plugins found on the class path and in the --plugins jars with their extension"
            + " points, args type, class and the jar each came from.")
public final class PluginsCommand implements Callable<Integer> {
  private static final List<Map.Entry<Class<?>, String>> POINTS =
      List.of(
          Map.entry(PreEnqueuePlugin.class, "PreEnqueue"),
          Map.entry(QueueSortPlugin.class, "QueueSort"),
          Map.entry(PreFilterPlugin.class, "PreFilter"),
          Map.entry(FilterPlugin.class, "Filter"),
          Map.entry(PostFilterPlugin.class, "PostFilter"),
          Map.entry(PreScorePlugin.class, "PreScore"),
          Map.entry(ScorePlugin.class, "Score"),
          Map.entry(ReservePlugin.class, "Reserve"),
          Map.entry(PermitPlugin.class, "Permit"),
          Map.entry(PreBindPlugin.class, "PreBind"),
          Map.entry(BindPlugin.class, "Bind"),
          Map.entry(PostBindPlugin.class, "PostBind"));

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PluginRegistry registry = PluginRegistry.discover();
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"NAME", "EXTENSION POINTS", "ARGS", "CLASS", "SOURCE"});
    for (String name : registry.names()) {
      PluginProvider<?> p = registry.get(name).orElseThrow();
      rows.add(
          new String[] {
            name,
            String.join(",", extensionPoints(p.pluginType())),
            p.argsType() == NoArgs.class ? "-" : p.argsType().getSimpleName(),
            p.pluginType().getName(),
            PluginJars.sourceOf(p.getClass())
          });
    }
    int columns = rows.get(0).length;
    int[] w = new int[columns];
    for (String[] r : rows) {
      for (int i = 0; i < columns; i++) {
        w[i] = Math.max(w[i], r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        sb.append(r[i]);
        if (i < columns - 1) {
          sb.append(" ".repeat(w[i] - r[i].length() + 2));
        }
      }
      out.println(sb.toString().stripTrailing());
    }
    out.flush();
    return 0;
  }

  /** Returns the extension points {@code type} implements, in kube's order. */
  static List<String> extensionPoints(Class<? extends Plugin> type) {
    List<String> points = new ArrayList<>();
    for (Map.Entry<Class<?>, String> e : POINTS) {
      if (e.getKey().isAssignableFrom(type)) {
        points.add(e.getValue());
      }
    }
    return points;
  }
}
