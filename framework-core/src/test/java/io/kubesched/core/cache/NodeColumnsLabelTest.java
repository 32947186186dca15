package io.kubesched.core.cache;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubesched.framework.NodeColumns;
import io.kubesched.framework.NodeInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link NodeColumns#labelValues}: one column per key, kept through growth, capped. */
final class NodeColumnsLabelTest {
  private static NodeInfo node(String name, Map<String, String> labels) {
    return NodeInfo.of(new V1Node().metadata(new V1ObjectMeta().name(name).labels(labels)));
  }

  @Test
  void aColumnFollowsRowsSetAndAddedAfterItWasAskedFor() {
    NodeColumns c = new NodeColumns();
    c.resize(2);
    c.set(0, node("a", Map.of("zone", "z1")));
    c.set(1, node("b", Map.of()));
    assertThat(c.labelValues("zone")).startsWith("z1", null);
    assertThat(c.labelValues("zone")).isSameAs(c.labelValues("zone"));

    c.resize(40);
    for (int r = 2; r < 40; r++) {
      c.set(r, node("n" + r, Map.of("zone", "z" + r)));
    }
    c.set(1, node("b", Map.of("zone", "z9")));
    String[] zones = Arrays.copyOf(c.labelValues("zone"), c.size());
    assertThat(zones[0]).isEqualTo("z1");
    assertThat(zones[1]).isEqualTo("z9");
    assertThat(zones[39]).isEqualTo("z39");

    c.resize(1);
    c.resize(2);
    assertThat(c.labelValues("zone")[1]).as("a row dropped and added again is empty").isNull();
  }

  @Test
  void keysPastTheCapAreNotKept() {
    NodeColumns c = new NodeColumns();
    c.resize(1);
    c.set(0, node("a", Map.of("k0", "v0")));
    for (int k = 0; k < NodeColumns.MAX_LABEL_COLUMNS; k++) {
      assertThat(c.labelValues("k" + k)).as("key %d", k).isNotNull();
    }
    assertThat(List.of(c.labelValues("k0")[0])).isEqualTo(List.of("v0"));
    assertThat(c.labelValues("one-too-many")).isNull();
  }
}
