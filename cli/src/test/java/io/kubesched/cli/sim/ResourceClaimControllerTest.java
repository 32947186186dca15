package io.kubesched.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1AllocationResult;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1ResourceClaimConsumerReference;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourceClaimStatus;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplate;
import io.kubernetes.client.openapi.models.V1ResourceClaimTemplateSpec;
import io.kubesched.core.cluster.InMemoryCluster;
import io.kubesched.testing.MakePod;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResourceClaimControllerTest {
  private final InMemoryCluster cluster = new InMemoryCluster();

  private static V1Pod pod(String name, String uid) {
    return MakePod.pod().name(name).namespace("default").uid(uid).obj();
  }

  private void sharedClaim(String... consumers) {
    V1ResourceClaimStatus status = new V1ResourceClaimStatus().allocation(new V1AllocationResult());
    for (String c : consumers) {
      status.addReservedForItem(
          new V1ResourceClaimConsumerReference().resource("pods").name(c).uid(c + "-uid"));
    }
    cluster.create(
        new ResourceV1ResourceClaim()
            .metadata(
                new V1ObjectMeta()
                    .name("shared")
                    .namespace("default")
                    .addFinalizersItem("resource.kubernetes.io/delete-protection"))
            .spec(new V1ResourceClaimSpec())
            .status(status));
  }

  @Test
  void createsTheTemplateClaimOwnedByThePodAndRecordsItsName() {
    cluster.create(
        new V1ResourceClaimTemplate()
            .metadata(new V1ObjectMeta().name("t").namespace("default"))
            .spec(new V1ResourceClaimTemplateSpec().spec(new V1ResourceClaimSpec())));
    V1Pod p = pod("train-0", null);
    p.getSpec()
        .addResourceClaimsItem(
            new V1PodResourceClaim().name("gpus").resourceClaimTemplateName("t"));
    ResourceClaimController.createClaims(cluster, p);
    String name = p.getStatus().getResourceClaimStatuses().get(0).getResourceClaimName();
    assertThat(name).matches("train-0-gpus-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(name).isEqualTo(ResourceClaimController.generatedName("default", "train-0", "gpus"));
    ResourceV1ResourceClaim claim = cluster.getResourceClaim("default", name).orElseThrow();
    assertThat(claim.getMetadata().getOwnerReferences().get(0).getUid())
        .isEqualTo(p.getMetadata().getUid())
        .isNotNull();
    assertThat(claim.getMetadata().getOwnerReferences().get(0).getController()).isTrue();
  }

  @Test
  void aDeletedPodLeavesTheSharedClaimWhichStaysAllocatedForTheOthers() {
    sharedClaim("a", "b");
    cluster.addListener(new ResourceClaimController(cluster));
    cluster.addPod(pod("a", "a-uid"));
    cluster.deletePod(pod("a", "a-uid"));
    ResourceV1ResourceClaim c = cluster.getResourceClaim("default", "shared").orElseThrow();
    assertThat(c.getStatus().getReservedFor())
        .extracting(V1ResourceClaimConsumerReference::getName)
        .isEqualTo(List.of("b"));
    assertThat(c.getStatus().getAllocation()).isNotNull();
  }

  @Test
  void theLastConsumerGoneDeallocatesTheClaim() {
    sharedClaim("a");
    cluster.addListener(new ResourceClaimController(cluster));
    cluster.addPod(pod("a", "a-uid"));
    cluster.deletePod(pod("a", "a-uid"));
    ResourceV1ResourceClaim c = cluster.getResourceClaim("default", "shared").orElseThrow();
    assertThat(c.getStatus().getAllocation()).isNull();
    assertThat(c.getStatus().getReservedFor()).isNullOrEmpty();
    assertThat(c.getMetadata().getFinalizers()).isNullOrEmpty();
  }
}
