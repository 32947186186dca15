package io.kubesched.cli;

import java.util.List;

/**
 * The log level of {@code kubesched run}: kubesched's {@code -v}/{@code -vv} and klog's {@code
 * --v=N} (also {@code -v=N}, {@code -v N}), mapped onto slf4j levels.
 *
 * <table>
 *   <caption>Mapping</caption>
 *   <tr><th>Flags</th><th>Level</th></tr>
 *   <tr><td>none</td><td>ERROR</td></tr>
 *   <tr><td>{@code -v}; {@code --v=0} to {@code --v=2}</td><td>INFO</td></tr>
 *   <tr><td>{@code -vv}; {@code --v=3}, {@code --v=4}</td><td>DEBUG</td></tr>
 *   <tr><td>{@code --v=5} and more</td><td>TRACE</td></tr>
 * </table>
 *
 * <p>klog's level 0 holds kube-scheduler's always-on messages and level 2 its per-pod ones (bound,
 * unschedulable), which kubesched logs at INFO; levels 3 to 4 are kube's details, 5 and more its
 * traces.
 */
final class Verbosity {
  static final int ERROR = 0;
  static final int INFO = 1;
  static final int DEBUG = 2;
  static final int TRACE = 3;

  /** The value picocli gives a bare {@code -v}. */
  static final String BARE = "+";

  private Verbosity() {}

  /**
   * Returns the level for the values of the {@code -v} option: {@link #BARE} for each bare {@code
   * -v}, {@code "v"} for {@code -vv} (picocli reads the second {@code v} as the value), a number
   * for klog's {@code --v=N}; the most verbose wins.
   *
   * @throws IllegalArgumentException with pflag's message when a value is not a level
   */
  static int slf4jLevel(List<String> values) {
    int bare = 0;
    int level = ERROR;
    for (String v : values) {
      if (v.equals(BARE) || v.isEmpty()) {
        bare++;
      } else if (v.chars().allMatch(c -> c == 'v')) {
        bare += v.length() + 1;
      } else {
        int n;
        try {
          n = Integer.parseInt(v);
        } catch (NumberFormatException e) {
          n = -1;
        }
        if (n < 0) {
          throw new IllegalArgumentException(
              "invalid argument \""
                  + v
                  + "\" for \"-v, --v\" flag: strconv.ParseInt: parsing \""
                  + v
                  + "\": invalid syntax");
        }
        level = Math.max(level, n >= 5 ? TRACE : n >= 3 ? DEBUG : INFO);
      }
    }
    return Math.max(level, Math.min(bare, DEBUG));
  }

  /**
   * Sets the level of the bundled slf4j-simple backend before the first logger is created (see
   * {@link Main#configureLogging(int)}).
   */
  static void configureLogging(int level) {
    if (level >= TRACE) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "trace");
      System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
    } else {
      Main.configureLogging(level);
    }
  }
}
