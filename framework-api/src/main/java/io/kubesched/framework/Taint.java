package io.kubesched.framework;

import io.kubernetes.client.openapi.models.V1Taint;

/**
 * A node taint.
 *
 * @param key the taint key
 * @param value the value, {@code ""} when unset
 * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
 */
public record Taint(String key, String value, String effect) {
  /** The effect that forbids scheduling. */
  public static final String NO_SCHEDULE = "NoSchedule";

  /** The effect that discourages scheduling. */
  public static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";

  /** The effect that forbids scheduling and evicts running pods. */
  public static final String NO_EXECUTE = "NoExecute";

  /** Normalises {@code null} strings to {@code ""}. */
  public Taint {
    key = key == null ? "" : key;
    value = value == null ? "" : value;
    effect = effect == null ? "" : effect;
  }

  /** Converts a client-java taint. */
  public static Taint of(V1Taint t) {
    return new Taint(t.getKey(), t.getValue(), t.getEffect());
  }

  /** Formats as kube's error messages do: {@code {key: value}}. */
  public String keyValue() {
    return "{" + key + ": " + value + "}";
  }
}
