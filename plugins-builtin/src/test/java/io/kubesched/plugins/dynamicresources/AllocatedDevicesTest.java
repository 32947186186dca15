package io.kubesched.plugins.dynamicresources;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceAllocationResult;
import io.kubernetes.client.openapi.models.V1DeviceRequestAllocationResult;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The allocated-devices tracker: what it holds after claim events in any order. */
final class AllocatedDevicesTest {
  private static ResourceV1ResourceClaim claim(String uid, long rv, String... devices) {
    ResourceV1ResourceClaim c =
        new ResourceV1ResourceClaim()
            .metadata(new V1ObjectMeta().name("c-" + uid).namespace("ns").uid(uid))
            .status(new V1ResourceClaimStatus());
    c.getMetadata().setResourceVersion(Long.toString(rv));
    if (devices.length > 0) {
      List<V1DeviceRequestAllocationResult> rs = new ArrayList<>();
      for (String d : devices) {
        boolean admin = d.startsWith("admin:");
        rs.add(
            new V1DeviceRequestAllocationResult()
                .request("req")
                .driver("drv")
                .pool("pool")
                .device(admin ? d.substring(6) : d)
                .adminAccess(admin ? Boolean.TRUE : null));
      }
      c.getStatus()
          .allocation(new V1AllocationResult().devices(new V1DeviceAllocationResult().results(rs)));
    }
    return c;
  }

  private static Set<String> names(Set<DeviceId> ids) {
    Set<String> out = new TreeSet<>();
    for (DeviceId id : ids) {
      out.add(id.device());
    }
    return out;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "allocated then deallocated",
            (Consumer<AllocatedDevices>)
                t -> {
                  t.onResourceClaimChange(null, claim("a", 1, "d1", "d2"));
                  t.onResourceClaimChange(claim("a", 1, "d1", "d2"), claim("a", 2));
                },
            Set.of()),
        Arguments.argumentSet(
            "an older event after a newer one is ignored",
            (Consumer<AllocatedDevices>)
                t -> {
                  t.onResourceClaimChange(null, claim("a", 5, "d3"));
                  t.onResourceClaimChange(null, claim("a", 4, "d1"));
                },
            Set.of("d3")),
        Arguments.argumentSet(
            "deleted",
            (Consumer<AllocatedDevices>)
                t -> {
                  t.onResourceClaimChange(null, claim("a", 1, "d1"));
                  t.onResourceClaimChange(null, claim("b", 2, "d2"));
                  t.onResourceClaimChange(claim("a", 3, "d1"), null);
                },
            Set.of("d2")),
        Arguments.argumentSet(
            "admin access takes no device",
            (Consumer<AllocatedDevices>)
                t -> t.onResourceClaimChange(null, claim("a", 1, "admin:d1", "d2")),
            Set.of("d2")),
        Arguments.argumentSet(
            "a device held by two claims stays taken until both let go",
            (Consumer<AllocatedDevices>)
                t -> {
                  t.onResourceClaimChange(null, claim("a", 1, "d1"));
                  t.onResourceClaimChange(null, claim("b", 2, "d1"));
                  t.onResourceClaimChange(claim("a", 3, "d1"), null);
                },
            Set.of("d1")),
        Arguments.argumentSet(
            "a claim loaded without a UID is known by its name",
            (Consumer<AllocatedDevices>)
                t -> {
                  ResourceV1ResourceClaim c = claim("a", 1, "d1");
                  c.getMetadata().setUid(null);
                  t.seed(() -> List.of(c));
                },
            Set.of("d1")),
        Arguments.argumentSet(
            "seed after events: the newer version wins",
            (Consumer<AllocatedDevices>)
                t -> {
                  t.onResourceClaimChange(null, claim("a", 7, "d9"));
                  t.seed(() -> List.of(claim("a", 6, "d1"), claim("b", 6, "d2")));
                },
            Set.of("d2", "d9")));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void holds(Consumer<AllocatedDevices> events, Set<String> want) {
    AllocatedDevices t = new AllocatedDevices();
    events.accept(t);
    assertThat(names(t.view())).isEqualTo(new TreeSet<>(want));
  }

  @Test
  void aViewDoesNotChangeAndManyChangesKeepItRight() {
    AllocatedDevices t = new AllocatedDevices();
    t.onResourceClaimChange(null, claim("a", 1, "d0"));
    Set<DeviceId> before = t.view();
    Set<String> want = new TreeSet<>();
    for (int i = 1; i <= 500; i++) {
      t.onResourceClaimChange(null, claim("c" + i, i + 1, "x" + i));
      want.add("x" + i);
      if (i % 3 == 0) {
        t.onResourceClaimChange(claim("c" + i, i + 1, "x" + i), null);
        want.remove("x" + i);
      }
    }
    assertThat(names(before)).containsExactly("d0");
    want.add("d0");
    Set<DeviceId> after = t.view();
    assertThat(names(after)).isEqualTo(want);
    for (String n : want) {
      assertThat(after.contains(new DeviceId("drv", "pool", n))).as(n).isTrue();
    }
    assertThat(after.contains(new DeviceId("drv", "pool", "x3"))).isFalse();
  }

  @Test
  void aViewFindsAnIdByItsNamesWhateverRegistryMadeIt() {
    DeviceIds ids = new DeviceIds();
    DeviceId canonical = ids.intern(new DeviceId("drv", "pool", "d1"));
    AllocatedDevices t = new AllocatedDevices(ids);
    t.onResourceClaimChange(null, claim("a", 1, "d1"));
    Set<DeviceId> view = t.view();
    DeviceId ofAnother = new DeviceIds().intern(new DeviceId("drv", "pool", "d1"));
    assertThat(
            List.of(
                view.contains(canonical),
                view.contains(new DeviceId("drv", "pool", "d1")),
                view.contains(ofAnother),
                view.contains(ids.intern(new DeviceId("drv", "pool", "d2"))),
                view.contains(new DeviceId("drv", "pool", "never")),
                view.contains("d1")))
        .isEqualTo(List.of(true, true, true, false, false, false));
    assertThat(view).containsExactly(canonical);
  }

  @Test
  void canonicalIdsAreOnePerNameAndNumberedInOrder() {
    DeviceIds ids = new DeviceIds();
    DeviceId a = ids.intern(new DeviceId("drv", "pool", "a"));
    DeviceId b = ids.intern(new DeviceId("drv", "pool", "b"));
    assertThat(List.of(a.slot(), b.slot(), ids.intern(new DeviceId("drv", "pool", "a")).slot()))
        .isEqualTo(List.of(0, 1, 0));
    assertThat(ids.intern(new DeviceId("drv", "pool", "a"))).isSameAs(a);
    assertThat(ids.find(new DeviceId("drv", "pool", "c"))).isNull();
    assertThat(ids.bySlot(1)).isSameAs(b);
    assertThat(a).isNotEqualTo(b).isEqualTo(new DeviceId("drv", "pool", "a"));
  }

  @Test
  void aViewWithDevicesBeingAllocatedHoldsBothAndLeavesTheTrackerAlone() {
    AllocatedDevices t = new AllocatedDevices();
    t.onResourceClaimChange(null, claim("a", 1, "d1"));
    List<DeviceId> flying = new ArrayList<>();
    for (int i = 0; i < 200; i++) { // names never seen: slots past the tracker's bits
      flying.add(new DeviceId("drv", "pool", "f" + i));
    }
    Set<String> want = new TreeSet<>(List.of("d1"));
    for (DeviceId f : flying) {
      want.add(f.device());
    }
    assertThat(names(t.view(flying))).isEqualTo(want);
    assertThat(names(t.view())).containsExactly("d1");
  }
}
