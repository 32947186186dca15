package io.kubesched.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.invariants.Scenario.AddPods;
import io.kubesched.invariants.Scenario.App;
import io.kubesched.invariants.Scenario.GangSpec;
import io.kubesched.invariants.Scenario.NodeSpec;
import io.kubesched.invariants.Scenario.PodSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The counterexample the invariant properties found: a high-priority gang whose members keep
 * activating and rejecting each other (one member fits nowhere) used to make the simulation stop
 * with the lower-priority pods behind it never attempted — pending without a condition or message.
 * The driver now parks the chasing pods so that the others are scheduled.
 */
class GangLivelockTest {
  @Test
  void aGangThatCannotCompleteDoesNotStarveThePodsBehindIt() {
    NodeSpec node = new NodeSpec("z0", "a", 8000, 8192, 32, 0, 0, false);
    List<PodSpec> pods = new ArrayList<>();
    pods.add(new PodSpec(App.GANG, 100, 0, 0, 100, null, null, false, 0, 0));
    pods.add(new PodSpec(App.GANG, 100, 0, 0, 100, null, null, false, 0, 0));
    pods.add(new PodSpec(App.GANG, 100, 0, 1, 100, null, null, false, 0, 0));
    pods.add(new PodSpec(App.GANG, 100, 0, 0, 100, null, null, false, 0, 0));
    for (int i = 0; i < 30; i++) {
      pods.add(new PodSpec(App.FREE, 100, 0, 0, 0, null, null, false, 0, -1));
    }
    Scenario s =
        new Scenario(true, List.of(node), List.of(new GangSpec(3)), List.of(new AddPods(pods)));

    ScenarioRunner.Outcome o = new ScenarioRunner().run(s, 1);

    assertThat(o.violations()).isEmpty();
  }
}
