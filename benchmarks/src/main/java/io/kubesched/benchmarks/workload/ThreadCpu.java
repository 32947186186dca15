package io.kubesched.benchmarks.workload;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU time of every thread of this process by thread name, read from Linux's {@code
 * /proc/self/task}: it includes the JVM's own threads (the JIT compilers, G1's workers and
 * refinement threads), which {@link java.lang.management.ThreadMXBean} does not see. Names are
 * grouped without their trailing numbers ({@code GC Thread#0} and {@code GC Thread#1} count as
 * {@code GC Thread}); Linux shortens them to 15 characters.
 */
final class ThreadCpu {
  private static final Path TASKS = Path.of("/proc/self/task");

  /** The clock ticks per second of {@code /proc}'s times ({@code USER_HZ}, 100 on Linux). */
  private static final long TICKS_PER_SECOND = 100;

  private ThreadCpu() {}

  /**
   * Returns the CPU milliseconds (user and system) used so far by each group of threads, or an
   * empty map where {@code /proc/self/task} cannot be read (not Linux). Threads that ended are
   * missing.
   */
  static Map<String, Long> millisByName() {
    Map<String, Long> out = new TreeMap<>();
    if (!Files.isDirectory(TASKS)) {
      return out;
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (IOException e) {
          continue; // the thread ended meanwhile
        }
        Map.Entry<String, Long> e = parse(stat);
        if (e != null) {
          out.merge(e.getKey(), e.getValue(), Long::sum);
        }
      }
    } catch (IOException | RuntimeException e) {
      return new TreeMap<>();
    }
    return out;
  }

  /**
   * Returns the thread group's name and CPU milliseconds of one {@code /proc/<pid>/task/<tid>/stat}
   * line (see proc(5): the name in parentheses, then state, ..., utime and stime as the 14th and
   * 15th fields), or {@code null} when the line does not read so.
   */
  static Map.Entry<String, Long> parse(String stat) {
    int open = stat.indexOf('(');
    int close = stat.lastIndexOf(')');
    if (open < 0 || close < open || close + 2 > stat.length()) {
      return null;
    }
    String name = stat.substring(open + 1, close).replaceAll("[-#]?[0-9]+$", "").trim();
    String[] fields = stat.substring(close + 2).trim().split(" ");
    if (fields.length < 13) {
      return null;
    }
    try {
      long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
      return Map.entry(name, ticks * 1000 / TICKS_PER_SECOND);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Returns {@code after - before} by name, leaving out names that used no time. */
  static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> out = new TreeMap<>();
    after.forEach(
        (name, ms) -> {
          long d = ms - before.getOrDefault(name, 0L);
          if (d > 0) {
            out.put(name, d);
          }
        });
    return out;
  }
}
