package io.kubesched.framework;

/**
 * The parent of every extension point: a plugin has a name, unique within a profile, by which a
 * configuration enables it and by which statuses and scores are attributed to it.
 *
 * <p>A plugin may implement any number of extension-point interfaces; the framework calls each one
 * where the profile enables it. Plugin instances are built once per profile and are called from
 * several threads (Filter and Score run in parallel over nodes), so they must be thread-safe;
 * per-cycle data belongs in the {@link CycleState}.
 */
public interface Plugin {
  /** Returns the plugin's name, e.g. {@code "NodeResourcesFit"}; never {@code null}. */
  String name();
}
