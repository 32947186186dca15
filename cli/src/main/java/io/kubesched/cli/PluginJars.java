package io.kubesched.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The plugin jars of {@code --plugins} / {@code KUBESCHED_PLUGINS}: each entry is a jar file or a
 * directory whose {@code *.jar} files (not recursive, sorted by name) are loaded. The jars get one
 * class loader of their own whose parent is the command's, so a plugin jar sees the framework API
 * and its own dependencies (put them in the same directory) and {@link java.util.ServiceLoader}
 * finds the providers it lists in {@code META-INF/services/io.kubesched.framework.PluginProvider}.
 *
 * <p>Closing releases the jar files.
 */
final class PluginJars implements AutoCloseable {
  /** The environment variable read when {@code --plugins} is not given. */
  static final String ENV = "KUBESCHED_PLUGINS";

  private final List<Path> jars;
  private final URLClassLoader loader;

  private PluginJars(List<Path> jars, ClassLoader parent) {
    this.jars = List.copyOf(jars);
    URL[] urls = new URL[jars.size()];
    for (int i = 0; i < urls.length; i++) {
      try {
        urls[i] = jars.get(i).toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException(jars.get(i) + ": " + e.getMessage(), e);
      }
    }
    this.loader = new URLClassLoader("kubesched-plugins", urls, parent);
  }

  /**
   * Resolves {@code spec} (comma-separated jar files and directories, as given on the command line
   * or in {@link #ENV}) and opens a class loader over the jars found, with {@code parent} as
   * parent.
   *
   * @throws IllegalArgumentException naming the entry when it does not exist, is neither a jar file
   *     nor a directory, or cannot be read
   */
  static PluginJars open(String spec, ClassLoader parent) {
    Set<Path> jars = new LinkedHashSet<>();
    for (String raw : spec.split(",")) {
      String entry = raw.strip();
      if (entry.isEmpty()) {
        continue;
      }
      Path p = Path.of(entry);
      if (Files.isDirectory(p)) {
        try (Stream<Path> s = Files.list(p)) {
          s.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
              .sorted()
              .forEach(jars::add);
        } catch (IOException | UncheckedIOException e) {
          throw new IllegalArgumentException(entry + ": cannot list the directory: " + e, e);
        }
      } else if (!Files.exists(p)) {
        throw new IllegalArgumentException(entry + ": no such file or directory");
      } else if (!entry.endsWith(".jar")) {
        throw new IllegalArgumentException(entry + ": not a .jar file or a directory");
      } else if (!Files.isReadable(p)) {
        throw new IllegalArgumentException(entry + ": permission denied");
      } else {
        jars.add(p);
      }
    }
    return new PluginJars(new ArrayList<>(jars), parent);
  }

  /** Returns the class loader of the plugin jars (the parent's classes come first). */
  ClassLoader classLoader() {
    return loader;
  }

  /** Returns the jar files loaded, in class-path order. */
  List<Path> jars() {
    return jars;
  }

  /**
   * Returns where {@code type} was loaded from: the absolute path of the plugin jar when it came
   * from {@code --plugins}, else the file name of the jar (or the directory) on the command's class
   * path; {@code "-"} when unknown.
   */
  static String sourceOf(Class<?> type) {
    CodeSource cs = type.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return "-";
    }
    Path location;
    try {
      location = Path.of(cs.getLocation().toURI());
    } catch (Exception e) {
      return cs.getLocation().toString();
    }
    if (type.getClassLoader() instanceof URLClassLoader u
        && "kubesched-plugins".equals(u.getName())) {
      return location.toString();
    }
    Path name = location.getFileName();
    return Files.isDirectory(location) || name == null ? location.toString() : name.toString();
  }

  @Override
  public void close() {
    try {
      loader.close();
    } catch (IOException e) {
      // Nothing was written; a jar that cannot be closed is released at exit.
    }
  }
}
