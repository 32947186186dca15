package io.kubesched.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.reflect.TypeToken;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.apis.ResourceV1Api;
import io.kubernetes.client.openapi.models.ResourceV1ResourceClaim;
import io.kubernetes.client.openapi.models.V1CELDeviceSelector;
import io.kubernetes.client.openapi.models.V1Device;
import io.kubernetes.client.openapi.models.V1DeviceAttribute;
import io.kubernetes.client.openapi.models.V1DeviceClaim;
import io.kubernetes.client.openapi.models.V1DeviceClass;
import io.kubernetes.client.openapi.models.V1DeviceClassSpec;
import io.kubernetes.client.openapi.models.V1DeviceRequest;
import io.kubernetes.client.openapi.models.V1DeviceSelector;
import io.kubernetes.client.openapi.models.V1ExactDeviceRequest;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodResourceClaim;
import io.kubernetes.client.openapi.models.V1ResourceClaimSpec;
import io.kubernetes.client.openapi.models.V1ResourcePool;
import io.kubernetes.client.openapi.models.V1ResourceSlice;
import io.kubernetes.client.openapi.models.V1ResourceSliceSpec;
import io.kubernetes.client.util.Watch;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import io.kubesched.testing.apiserver.FakeApiServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code kubesched run} with DynamicResourceAllocation writes allocations through the API. */
final class RunCommandDraTest {
  private final FakeApiServer server = FakeApiServer.start();
  private final ApiClient client = server.client();
  private final CoreV1Api core = new CoreV1Api(client);
  private final ResourceV1Api resource = new ResourceV1Api(client);
  @TempDir Path dir;

  @AfterEach
  void close() {
    server.close();
  }

  private Path kubeconfig() throws Exception {
    return server.writeKubeconfig(dir.resolve("kubeconfig"));
  }

  @Test
  void runAllocatesTheClaimAndReservesItForThePod() throws Exception {
    for (String n : List.of("n1", "n2")) {
      core.createNode(
              MakeNode.node()
                  .name(n)
                  .label("kubernetes.io/hostname", n)
                  .capacity("cpu", "4", "memory", "8Gi", "pods", "110")
                  .obj())
          .execute();
    }
    resource
        .createDeviceClass(
            new V1DeviceClass()
                .metadata(new V1ObjectMeta().name("gpu"))
                .spec(
                    new V1DeviceClassSpec()
                        .addSelectorsItem(
                            new V1DeviceSelector()
                                .cel(
                                    new V1CELDeviceSelector()
                                        .expression("device.driver == \"gpu.example.com\"")))))
        .execute();
    resource
        .createResourceSlice(
            new V1ResourceSlice()
                .metadata(new V1ObjectMeta().name("n2-gpus"))
                .spec(
                    new V1ResourceSliceSpec()
                        .driver("gpu.example.com")
                        .nodeName("n2")
                        .pool(new V1ResourcePool().name("n2").generation(1L).resourceSliceCount(1L))
                        .addDevicesItem(
                            new V1Device()
                                .name("gpu-0")
                                .attributes(
                                    Map.of("model", new V1DeviceAttribute().string("A100"))))))
        .execute();
    resource
        .createNamespacedResourceClaim(
            "default",
            new ResourceV1ResourceClaim()
                .metadata(new V1ObjectMeta().name("gpu-claim").namespace("default"))
                .spec(
                    new V1ResourceClaimSpec()
                        .devices(
                            new V1DeviceClaim()
                                .addRequestsItem(
                                    new V1DeviceRequest()
                                        .name("gpu")
                                        .exactly(
                                            new V1ExactDeviceRequest()
                                                .deviceClassName("gpu")
                                                .allocationMode("ExactCount")
                                                .count(1L))))))
        .execute();
    V1Pod pod = MakePod.pod().name("p1").container("pause").obj();
    pod.getSpec()
        .addResourceClaimsItem(new V1PodResourceClaim().name("gpu").resourceClaimName("gpu-claim"));
    core.createNamespacedPod("default", pod).execute();

    RunCommand cmd = new RunCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = new CommandLine(cmd);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    String kubeconfigFile = kubeconfig().toString();
    String configFile =
        Files.writeString(
                dir.resolve("sched.yaml"),
                "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n")
            .toString();
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () ->
                cl.execute(
                    "--config",
                    configFile,
                    "--kubeconfig",
                    kubeconfigFile,
                    "--feature-gates=DynamicResourceAllocation=true",
                    "--metrics-port",
                    "0",
                    "--metrics-address",
                    "127.0.0.1"));
    String podUid;
    try {
      assertThat(cmd.awaitStarted(5, TimeUnit.SECONDS)).as("started; stderr: %s", err).isTrue();
      try (Watch<V1Pod> w =
          Watch.createWatch(
              client,
              core.listPodForAllNamespaces()
                  .watch(true)
                  .fieldSelector("spec.nodeName!=")
                  .timeoutSeconds(5)
                  .buildCall(null),
              new TypeToken<Watch.Response<V1Pod>>() {}.getType())) {
        V1Pod bound = w.next().object;
        assertThat(bound.getSpec().getNodeName()).isEqualTo("n2");
        podUid = bound.getMetadata().getUid();
      }
      ResourceV1ResourceClaim claim =
          resource.readNamespacedResourceClaim("gpu-claim", "default").execute();
      assertThat(claim.getMetadata().getFinalizers())
          .containsExactly("resource.kubernetes.io/delete-protection");
      var result = claim.getStatus().getAllocation().getDevices().getResults().get(0);
      assertThat(
              result.getRequest()
                  + " "
                  + result.getDriver()
                  + "/"
                  + result.getPool()
                  + "/"
                  + result.getDevice())
          .isEqualTo("gpu gpu.example.com/n2/gpu-0");
      assertThat(claim.getStatus().getReservedFor()).hasSize(1);
      assertThat(claim.getStatus().getReservedFor().get(0).getName()).isEqualTo("p1");
      assertThat(claim.getStatus().getReservedFor().get(0).getUid()).isEqualTo(podUid);
    } finally {
      cmd.stop();
    }
    assertThat(exit.get(5, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
  }
}
