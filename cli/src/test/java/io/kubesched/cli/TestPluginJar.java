package io.kubesched.cli;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.PluginProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Builds a plugin jar the way a plugin author would: Java sources compiled against the framework
 * API only, with the provider listed in {@code META-INF/services}; nothing of it is on the test's
 * class path.
 */
final class TestPluginJar {
  private TestPluginJar() {}

  /** A Filter plugin {@code OnlyNode} that rejects every node but the one named {@code node-b}. */
  static final Map<String, String> ONLY_NODE_B =
      Map.of(
          "acme/OnlyNode.java",
          """
          package acme;

          import io.kubesched.framework.*;

          public final class OnlyNode implements FilterPlugin {
            @Override
            public String name() {
              return "OnlyNode";
            }

            @Override
            public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
              return node.name().equals("node-b")
                  ? Status.success()
                  : Status.unresolvable("node is not node-b");
            }
          }
          """,
          "acme/OnlyNodeProvider.java",
          """
          package acme;

          import io.kubesched.framework.*;

          public final class OnlyNodeProvider implements PluginProvider<NoArgs> {
            public String name() { return "OnlyNode"; }
            public Class<NoArgs> argsType() { return NoArgs.class; }
            public NoArgs defaultArgs() { return NoArgs.INSTANCE; }
            public Class<? extends Plugin> pluginType() { return OnlyNode.class; }
            public Plugin create(NoArgs args, FrameworkHandle handle) { return new OnlyNode(); }
          }
          """);

  /**
   * Compiles {@code sources} (path to text) in {@code work}, and writes {@code jar} with the
   * classes and a services file listing {@code providers}.
   */
  static Path build(Path work, Path jar, Map<String, String> sources, List<String> providers)
      throws IOException {
    Path src = Files.createDirectories(work.resolve("src"));
    Path classes = Files.createDirectories(work.resolve("classes"));
    List<String> files = new java.util.ArrayList<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      Path f = src.resolve(e.getKey());
      Files.createDirectories(f.getParent());
      Files.writeString(f, e.getValue());
      files.add(f.toString());
    }
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> args = new java.util.ArrayList<>();
    args.addAll(
        List.of(
            "--release",
            "17",
            "-proc:none",
            "-d",
            classes.toString(),
            "-cp",
            location(FilterPlugin.class) + java.io.File.pathSeparator + location(V1Node.class)));
    args.addAll(files);
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int rc =
        javac.run(null, OutputStream.nullOutputStream(), diagnostics, args.toArray(String[]::new));
    if (rc != 0) {
      throw new IllegalStateException(
          "javac failed: " + diagnostics.toString(StandardCharsets.UTF_8));
    }
    Files.createDirectories(jar.getParent());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> walk = Files.walk(classes)) {
      for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
        out.write(Files.readAllBytes(p));
        out.closeEntry();
      }
      out.putNextEntry(new JarEntry("META-INF/services/" + PluginProvider.class.getName()));
      out.write((String.join("\n", providers) + "\n").getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return jar;
  }

  private static String location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
