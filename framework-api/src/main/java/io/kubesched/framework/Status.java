package io.kubesched.framework;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The result of running a plugin: a {@link Code}, the human-readable reasons, an optional cause and
 * the name of the plugin that set it.
 *
 * <p>{@code Status} mirrors kube-scheduler's {@code framework.Status}. A plugin never returns
 * {@code null}: success is {@link #success()}. The framework stamps the plugin name on rejections
 * ({@link #withPlugin(String)}); two statuses are equal when code, reasons and plugin are equal
 * (the cause takes no part in equality, so tests can compare whole values).
 *
 * @param code the outcome, never {@code null}
 * @param reasons the reasons, in order; never {@code null}
 * @param cause the error behind an {@link Code#ERROR} status, or {@code null}
 * @param plugin the plugin that set this status, or {@code null} when not known
 */
public record Status(
    Code code, List<String> reasons, @Nullable Throwable cause, @Nullable String plugin) {

  /**
   * The outcome of a plugin call. The names printed by {@link #toString()} are kube-scheduler's
   * ({@code Success}, {@code Unschedulable}, ...).
   */
  public enum Code {
    /** The plugin ran correctly and found the pod schedulable (or has nothing to say). */
    SUCCESS("Success"),
    /**
     * An internal error: the pod is retried after backoff and no plugin is blamed, so no cluster
     * event is needed to move it.
     */
    ERROR("Error"),
    /**
     * The pod does not fit now, but preemption or a cluster change might help. The pod goes to the
     * unschedulable pods until an event registered by the rejecting plugin moves it.
     */
    UNSCHEDULABLE("Unschedulable"),
    /**
     * The pod does not fit, and preemption on this node would not help. Like {@link #UNSCHEDULABLE}
     * for the queue; preemption skips nodes with this code.
     */
    UNSCHEDULABLE_AND_UNRESOLVABLE("UnschedulableAndUnresolvable"),
    /** A Permit plugin asks the pod to wait before binding. */
    WAIT("Wait"),
    /**
     * From PreFilter: skip this plugin's Filter for the cycle; from PreScore: skip its Score; from
     * Bind: not this binder's pod, try the next one.
     */
    SKIP("Skip"),
    /**
     * The pod waits for something outside the scheduler (not a failure of the pod); it is requeued
     * without backoff penalty as soon as an event from the plugin says so.
     */
    PENDING("Pending");

    private final String label;

    Code(String label) {
      this.label = label;
    }

    /** Returns kube-scheduler's name for the code, e.g. {@code UnschedulableAndUnresolvable}. */
    @Override
    public String toString() {
      return label;
    }
  }

  private static final Status SUCCESS = new Status(Code.SUCCESS, List.of(), null, null);
  private static final Status SKIP = new Status(Code.SKIP, List.of(), null, null);

  /** Normalises the reasons to an immutable list. */
  public Status {
    Objects.requireNonNull(code, "code must not be null");
    reasons = reasons == null ? List.of() : List.copyOf(reasons);
  }

  /** Returns the shared success status; never {@code null}. */
  public static Status success() {
    return SUCCESS;
  }

  /** Returns the shared skip status, without a plugin name. */
  public static Status skip() {
    return SKIP;
  }

  /** Returns a status with the given code and reasons. */
  public static Status of(Code code, String... reasons) {
    if (code == Code.SUCCESS && reasons.length == 0) {
      return SUCCESS;
    }
    return new Status(code, List.of(reasons), null, null);
  }

  /** Returns an {@link Code#UNSCHEDULABLE} status with the given reasons. */
  public static Status unschedulable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE, List.of(reasons), null, null);
  }

  /** Returns an {@link Code#UNSCHEDULABLE_AND_UNRESOLVABLE} status with the given reasons. */
  public static Status unresolvable(String... reasons) {
    return new Status(Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(reasons), null, null);
  }

  /** Returns a {@link Code#WAIT} status with the given reasons. */
  public static Status waiting(String... reasons) {
    return new Status(Code.WAIT, List.of(reasons), null, null);
  }

  /** Returns a {@link Code#PENDING} status with the given reasons. */
  public static Status pending(String... reasons) {
    return new Status(Code.PENDING, List.of(reasons), null, null);
  }

  /**
   * Returns an {@link Code#ERROR} status whose only reason is the message of {@code cause}, like
   * kube's {@code AsStatus(err)}.
   */
  public static Status error(Throwable cause) {
    Objects.requireNonNull(cause, "cause must not be null");
    return new Status(Code.ERROR, List.of(), cause, null);
  }

  /** Returns an {@link Code#ERROR} status with the given message as its cause. */
  public static Status error(String message) {
    return error(new SchedulingException(message));
  }

  /** Returns a copy of this status carrying the given plugin name. */
  public Status withPlugin(String pluginName) {
    if (Objects.equals(pluginName, plugin)) {
      return this;
    }
    return new Status(code, reasons, cause, pluginName);
  }

  /** Returns a copy of this status with {@code reason} appended. */
  public Status withReason(String reason) {
    List<String> more = new ArrayList<>(reasons);
    more.add(reason);
    return new Status(code, more, cause, plugin);
  }

  /** Returns {@code true} for {@link Code#SUCCESS}. */
  public boolean isSuccess() {
    return code == Code.SUCCESS;
  }

  /** Returns {@code true} for {@link Code#SKIP}. */
  public boolean isSkip() {
    return code == Code.SKIP;
  }

  /** Returns {@code true} for {@link Code#WAIT}. */
  public boolean isWait() {
    return code == Code.WAIT;
  }

  /**
   * Returns {@code true} when the pod was rejected: {@link Code#UNSCHEDULABLE}, {@link
   * Code#UNSCHEDULABLE_AND_UNRESOLVABLE} or {@link Code#PENDING}.
   */
  public boolean isRejected() {
    return code == Code.UNSCHEDULABLE
        || code == Code.UNSCHEDULABLE_AND_UNRESOLVABLE
        || code == Code.PENDING;
  }

  /**
   * Returns the reasons as kube's {@code Reasons()} does: the cause's message first (when there is
   * a cause), then the reasons.
   */
  public List<String> allReasons() {
    if (cause == null) {
      return reasons;
    }
    List<String> all = new ArrayList<>(reasons.size() + 1);
    all.add(String.valueOf(cause.getMessage()));
    all.addAll(reasons);
    return List.copyOf(all);
  }

  /** Returns the reasons joined by {@code ", "}, as kube's {@code Message()}. */
  public String message() {
    return String.join(", ", allReasons());
  }

  /**
   * Returns this status as an exception, or {@code null} for success, wait and skip (kube's {@code
   * AsError()}).
   */
  public @Nullable SchedulingException asException() {
    if (code == Code.SUCCESS || code == Code.WAIT || code == Code.SKIP) {
      return null;
    }
    if (cause instanceof SchedulingException se) {
      return se;
    }
    return new SchedulingException(message(), cause);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Status s
        && code == s.code
        && reasons.equals(s.reasons)
        && Objects.equals(plugin, s.plugin)
        && Objects.equals(
            cause == null ? null : cause.getMessage(),
            s.cause == null ? null : s.cause.getMessage());
  }

  @Override
  public int hashCode() {
    return Objects.hash(code, reasons, plugin);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(code.toString());
    if (plugin != null) {
      sb.append(" [").append(plugin).append(']');
    }
    String m = message();
    if (!m.isEmpty()) {
      sb.append(": ").append(m);
    }
    return sb.toString();
  }
}
