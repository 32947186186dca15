package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link QueuedPodInfo} is read-only for plugins; the runtime writes it through {@link
 * EngineHooks}.
 */
final class QueuedPodInfoTest {
  private static final class Runtime extends EngineHooks {
    static void reject(QueuedPodInfo p, String plugin) {
      unschedulablePlugins(p).add(plugin);
      setAttempts(p, p.attempts() + 1);
    }
  }

  @Test
  void pluginsSeeReadOnlySetsThatFollowTheRuntimesChanges() {
    QueuedPodInfo p =
        new QueuedPodInfo(
            PodInfo.of(new V1Pod().metadata(new V1ObjectMeta().name("p").namespace("ns"))),
            Instant.EPOCH);

    Runtime.reject(p, "NodeResourcesFit");

    assertThat(p.unschedulablePlugins()).containsExactly("NodeResourcesFit");
    assertThat(p.attempts()).isEqualTo(1);
    assertThatThrownBy(() -> p.unschedulablePlugins().clear())
        .isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> p.pendingPlugins().add("X"))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
