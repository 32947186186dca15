package io.kubesched.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.StorageV1Api;
import io.kubernetes.client.openapi.models.V1HostPathVolumeSource;
import io.kubernetes.client.openapi.models.V1Namespace;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PersistentVolume;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaim;
import io.kubernetes.client.openapi.models.V1PersistentVolumeClaimSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeSpec;
import io.kubernetes.client.openapi.models.V1PersistentVolumeStatus;
import io.kubernetes.client.openapi.models.V1StorageClass;
import io.kubernetes.client.openapi.models.V1VolumeResourceRequirements;
import io.kubesched.core.cluster.ClusterException;
import io.kubesched.core.kubernetes.KubernetesCluster;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * VolumeBinding on a {@link KubernetesCluster}: informers feed it, PreBind writes through the API.
 */
final class VolumeBindingKubernetesTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final KubernetesCluster cluster =
      new KubernetesCluster(client, Clock.systemUTC(), "default-scheduler");

  @BeforeEach
  void setUp() throws Exception {
    core.createNamespace(new V1Namespace().metadata(new V1ObjectMeta().name("default"))).execute();
    new StorageV1Api(client)
        .createStorageClass(
            new V1StorageClass()
                .metadata(new V1ObjectMeta().name("local"))
                .provisioner(PersistentVolumes.NO_PROVISIONER)
                .volumeBindingMode("WaitForFirstConsumer"))
        .execute();
    core.createPersistentVolume(
            new V1PersistentVolume()
                .metadata(new V1ObjectMeta().name("pv1"))
                .spec(
                    new V1PersistentVolumeSpec()
                        .storageClassName("local")
                        .accessModes(List.of("ReadWriteOnce"))
                        .capacity(Map.of("storage", Quantity.fromString("5Gi")))
                        .hostPath(new V1HostPathVolumeSource().path("/tmp")))
                .status(new V1PersistentVolumeStatus().phase("Available")))
        .execute();
    core.createNamespacedPersistentVolumeClaim(
            "default",
            new V1PersistentVolumeClaim()
                .metadata(new V1ObjectMeta().name("c1").namespace("default").uid("c1-uid"))
                .spec(
                    new V1PersistentVolumeClaimSpec()
                        .storageClassName("local")
                        .accessModes(List.of("ReadWriteOnce"))
                        .resources(
                            new V1VolumeResourceRequirements()
                                .requests(Map.of("storage", Quantity.fromString("1Gi"))))))
        .execute();
    cluster.start(Duration.ofSeconds(30)); // a bound, not a wait: returns once synced
  }

  @AfterEach
  void close() {
    cluster.close();
    server.close();
  }

  @Test
  void preBindWritesTheBindingThroughTheApi() throws Exception {
    assertThat(cluster.getStorageClass("local")).isPresent();
    assertThat(cluster.getPersistentVolumeClaim("default", "c1")).isPresent();
    VolumeBinding plugin = new VolumeBinding(cluster, new VolumeBindingArgs(0L, List.of()), false);
    CycleState state = new CycleState();
    PodInfo pod = PodInfo.of(MakePod.pod().name("p").pvc("c1").obj());
    assertThat(plugin.preFilter(state, pod, List.of()).status()).isEqualTo(Status.success());
    assertThat(plugin.filter(state, pod, MakeNode.node().name("n1").info()))
        .isEqualTo(Status.success());
    assertThat(plugin.reserve(state, pod, "n1")).isEqualTo(Status.success());
    Status s = plugin.preBind(state, pod, "n1");
    V1PersistentVolume written = core.readPersistentVolume("pv1").execute();
    assertThat(written.getSpec().getClaimRef().getName()).isEqualTo("c1");
    assertThat(written.getSpec().getClaimRef().getUid())
        .isEqualTo(
            core.readNamespacedPersistentVolumeClaim("c1", "default")
                .execute()
                .getMetadata()
                .getUid());
    assertThat(written.getMetadata().getAnnotations())
        .containsEntry(PersistentVolumes.ANN_BOUND_BY_CONTROLLER, "yes");
    // no PV controller runs here, so the claim never becomes bound within the (zero) timeout
    assertThat(s.message())
        .isEqualTo(
            "binding volumes: timed out waiting for the condition: claim c1 is not bound yet");
  }

  @Test
  void aStaleWriteIsAConflict() throws Exception {
    V1PersistentVolume pv = core.readPersistentVolume("pv1").execute();
    pv.getMetadata().setResourceVersion("1");
    try {
      cluster.updatePersistentVolume(pv);
    } catch (ClusterException e) {
      assertThat(e.reason()).isEqualTo(ClusterException.Reason.CONFLICT);
      return;
    }
    throw new AssertionError("expected a conflict");
  }
}
