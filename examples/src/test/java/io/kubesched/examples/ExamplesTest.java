package io.kubesched.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.examples.customscheduler.CustomSchedulerExample;
import io.kubesched.examples.gang.GangSchedulingExample;
import io.kubesched.examples.reservation.ReservationExample;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class ExamplesTest {
  @Test
  void customSchedulerBindsEveryPodWithBothProfiles() {
    Map<String, String> placements = CustomSchedulerExample.run();
    assertThat(placements).hasSize(6);
    assertThat(placements.values()).allSatisfy(node -> assertThat(node).startsWith("node-"));
  }

  @Test
  void gangThatFitsIsBoundWholeAndGangThatDoesNotBindsNothing() {
    Map<String, String> placements = GangSchedulingExample.run();
    assertThat(placements.get("train-a-0")).isNotNull();
    assertThat(placements.get("train-a-1")).isNotNull();
    assertThat(placements.get("train-a-2")).isNotNull();
    assertThat(placements.get("train-b-0")).isNull();
    assertThat(placements.get("train-b-1")).isNull();
    assertThat(placements.get("train-b-2")).isNull();
    assertThat(placements.get("train-b-3")).isNull();
  }

  @Test
  void recreatedPodGetsItsReservedPlaceBack() {
    Map<String, String> with = ReservationExample.run(true);
    assertThat(with.get("db-0")).isEqualTo("node-0");
    assertThat(with.values().stream().filter(n -> n == null).count()).isEqualTo(1);
    Map<String, String> without = ReservationExample.run(false);
    assertThat(without.get("db-0")).isNull();
  }
}
