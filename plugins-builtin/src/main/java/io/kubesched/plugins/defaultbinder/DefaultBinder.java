package io.kubesched.plugins.defaultbinder;

import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.plugins.PluginNames;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code DefaultBinder} is the bind plugin that binds a pod to its node through the cluster (the
 * {@code pods/binding} subresource).
 */
public final class DefaultBinder implements BindPlugin {
  /** The plugin's name. */
  public static final String NAME = PluginNames.DEFAULT_BINDER;

  private static final Logger log = LoggerFactory.getLogger(DefaultBinder.class);

  private final FrameworkHandle handle;

  /** Creates the plugin; it binds through {@code handle.client()}. */
  public DefaultBinder(FrameworkHandle handle) {
    this.handle = handle;
  }

  @Override
  public String name() {
    return NAME;
  }

  /** Binds the pod; a failure of the cluster call becomes an {@code Error} status. */
  @Override
  public Status bind(CycleState state, PodInfo pod, String nodeName) {
    log.atDebug()
        .setMessage("attempting to bind pod to node")
        .addKeyValue("pod", pod.key())
        .addKeyValue("node", nodeName)
        .addKeyValue("plugin", NAME)
        .log();
    try {
      handle.client().bind(pod.pod(), nodeName);
    } catch (RuntimeException e) {
      return Status.error(e);
    }
    return Status.success();
  }
}
