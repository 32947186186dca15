package io.kubesched.plugins.dynamicresources;

import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.NS;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.ON;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.POD;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.allocatedClaim;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.objects;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.pendingClaim;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.plugin;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.podWithClaimName;
import static io.kubesched.plugins.dynamicresources.DynamicResourcesTest.podWithClaimTemplate;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.QueueingHint;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * kube v1.34's {@code EventsToRegister} of DynamicResources and the cases of {@code
 * TestIsSchedulableAfterClaimChange} / {@code TestIsSchedulableAfterPodChange}.
 */
class DynamicResourcesHintsTest {
  @Test
  void eventsAreKubeV134s() {
    List<String> got =
        plugin(new InMemoryCluster(), ON).eventsToRegister().stream()
            .map(e -> describe(e.event()) + (e.hint() == null ? "" : " (hint)"))
            .toList();
    assertThat(got)
        .isEqualTo(
            List.of(
                EventResource.NODE
                    + " "
                    + (ActionType.ADD
                        | ActionType.UPDATE_NODE_LABEL
                        | ActionType.UPDATE_NODE_ALLOCATABLE),
                EventResource.RESOURCE_CLAIM
                    + " "
                    + (ActionType.ADD | ActionType.UPDATE)
                    + " (hint)",
                EventResource.POD
                    + " "
                    + ActionType.UPDATE_POD_GENERATED_RESOURCE_CLAIM
                    + " (hint)",
                EventResource.DEVICE_CLASS + " " + (ActionType.ADD | ActionType.UPDATE),
                EventResource.RESOURCE_SLICE + " " + (ActionType.ADD | ActionType.UPDATE)));
  }

  private static String describe(ClusterEvent e) {
    return e.resource() + " " + e.actionType();
  }

  record ClaimCase(
      String name,
      V1Pod pod,
      Consumer<InMemoryCluster> setup,
      Object oldObj,
      Object newObj,
      QueueingHint want) {
    @Override
    public String toString() {
      return name;
    }
  }

  static ResourceV1ResourceClaim withUid(ResourceV1ResourceClaim c, String uid) {
    c.getMetadata().setUid(uid);
    return c;
  }

  static ResourceV1ResourceClaim withFinalizer(ResourceV1ResourceClaim c) {
    c.getMetadata().addFinalizersItem("example.com/x");
    return c;
  }

  static Stream<ClaimCase> claimCases() {
    return Stream.of(
        new ClaimCase(
            "queue-on-add",
            podWithClaimName(),
            objects(pendingClaim()),
            null,
            pendingClaim(),
            QueueingHint.QUEUE),
        new ClaimCase(
            "backoff-wrong-new-object",
            podWithClaimName(),
            objects(pendingClaim()),
            null,
            "not-a-claim",
            QueueingHint.QUEUE),
        new ClaimCase(
            "skip-pod-without-its-claim",
            podWithClaimName(),
            c -> {},
            null,
            pendingClaim(),
            QueueingHint.SKIP),
        new ClaimCase(
            "skip-unrelated-claim",
            podWithClaimName(),
            objects(pendingClaim()),
            null,
            withUid(pendingClaim(), "other-uid"),
            QueueingHint.SKIP),
        new ClaimCase(
            "skip-adding-finalizer",
            podWithClaimName(),
            objects(pendingClaim()),
            pendingClaim(),
            withFinalizer(pendingClaim()),
            QueueingHint.SKIP),
        new ClaimCase(
            "queue-on-status-change",
            podWithClaimName(),
            objects(pendingClaim()),
            pendingClaim(),
            allocatedClaim("worker"),
            QueueingHint.QUEUE),
        new ClaimCase(
            "structured-claim-deallocate",
            podWithClaimName(),
            objects(pendingClaim()),
            withUid(allocatedClaim("worker"), "other-uid"),
            withUid(pendingClaim(), "other-uid"),
            QueueingHint.QUEUE));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("claimCases")
  void claimChange(ClaimCase tc) {
    InMemoryCluster cluster = new InMemoryCluster();
    tc.setup().accept(cluster);
    assertThat(
            plugin(cluster, ON).isSchedulableAfterClaimChange(tc.pod(), tc.oldObj(), tc.newObj()))
        .isEqualTo(tc.want());
  }

  static Stream<ClaimCase> podCases() {
    V1Pod other = MakePod.pod().name("other").namespace(NS).uid("other-uid").obj();
    return Stream.of(
        new ClaimCase(
            "skip-other-pod",
            podWithClaimTemplate(true),
            objects(pendingClaim()),
            null,
            other,
            QueueingHint.SKIP),
        new ClaimCase(
            "skip-claim-still-missing",
            podWithClaimTemplate(false),
            objects(pendingClaim()),
            podWithClaimTemplate(false),
            podWithClaimTemplate(false),
            QueueingHint.SKIP),
        new ClaimCase(
            "queue-claim-name-recorded",
            podWithClaimTemplate(false),
            objects(owned()),
            podWithClaimTemplate(false),
            podWithClaimTemplate(true),
            QueueingHint.QUEUE));
  }

  static ResourceV1ResourceClaim owned() {
    ResourceV1ResourceClaim c = pendingClaim();
    c.getMetadata()
        .addOwnerReferencesItem(
            new io.kubernetes.client.openapi.models.V1OwnerReference()
                .apiVersion("v1")
                .kind("Pod")
                .name(POD)
                .uid(DynamicResourcesTest.POD_UID)
                .controller(true));
    return c;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("podCases")
  void podChange(ClaimCase tc) {
    InMemoryCluster cluster = new InMemoryCluster();
    tc.setup().accept(cluster);
    assertThat(plugin(cluster, ON).isSchedulableAfterPodChange(tc.pod(), tc.oldObj(), tc.newObj()))
        .isEqualTo(tc.want());
  }
}
