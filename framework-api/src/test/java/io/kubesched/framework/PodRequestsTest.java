package io.kubesched.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class PodRequestsTest {
  private static final long MI = 1024L * 1024;
  private static final long GI = 1024 * MI;
  private static final long DEF_MEM = 200 * MI;

  private static Resource cpuMem(long milliCpu, long memory) {
    return new Resource(milliCpu, memory, 0, 0, Map.of());
  }

  static Stream<Arguments> requests() {
    return Stream.of(
        Arguments.argumentSet("no containers", Pods.pod("p"), cpuMem(0, 0), cpuMem(0, 0)),
        Arguments.argumentSet(
            "regular containers are summed",
            Pods.pod("p").req("cpu", "1", "memory", "1Gi").req("cpu", "500m", "memory", "1Gi"),
            cpuMem(1500, 2 * GI),
            cpuMem(1500, 2 * GI)),
        Arguments.argumentSet(
            "the largest init container wins per resource",
            Pods.pod("p")
                .req("cpu", "1", "memory", "1Gi")
                .init("cpu", "2", "memory", "100Mi")
                .init("cpu", "500m", "memory", "2Gi"),
            cpuMem(2000, 2 * GI),
            cpuMem(2000, 2 * GI)),
        Arguments.argumentSet(
            "sidecars add to the regular containers",
            Pods.pod("p").sidecar("cpu", "1").sidecar("cpu", "2").req("cpu", "1"),
            cpuMem(4000, 0),
            cpuMem(4000, 3 * DEF_MEM)),
        Arguments.argumentSet(
            "an init container counts with the sidecars declared before it (KEP-753 example)",
            Pods.pod("p").sidecar("cpu", "1").init("cpu", "10").sidecar("cpu", "3").req("cpu", "1"),
            cpuMem(11000, 0),
            cpuMem(11000, 3 * DEF_MEM)),
        Arguments.argumentSet(
            "an init container before any sidecar counts alone",
            Pods.pod("p").init("cpu", "4").sidecar("cpu", "1").req("cpu", "1"),
            cpuMem(4000, 0),
            cpuMem(4000, 2 * DEF_MEM)),
        Arguments.argumentSet(
            "regular plus sidecars beat a smaller init container",
            Pods.pod("p").sidecar("cpu", "1").init("cpu", "2").req("cpu", "3"),
            cpuMem(4000, 0),
            cpuMem(4000, 2 * DEF_MEM)),
        Arguments.argumentSet(
            "overhead is added after the max",
            Pods.pod("p")
                .req("cpu", "1")
                .init("cpu", "3")
                .overhead("cpu", "250m", "memory", "64Mi"),
            cpuMem(3250, 64 * MI),
            cpuMem(3250, DEF_MEM + 64 * MI)),
        Arguments.argumentSet(
            "defaults apply only to a missing cpu or memory",
            Pods.pod("p").req("cpu", "300m").req("memory", "1Gi").req(),
            cpuMem(300, GI),
            cpuMem(300 + 100 + 100, DEF_MEM + GI + DEF_MEM)),
        Arguments.argumentSet(
            "an explicit zero request is not missing",
            Pods.pod("p").req("cpu", "0", "memory", "0"),
            cpuMem(0, 0),
            cpuMem(0, 0)),
        Arguments.argumentSet(
            "defaults apply to init containers too",
            Pods.pod("p").req("cpu", "50m", "memory", "10Mi").init(),
            cpuMem(50, 10 * MI),
            cpuMem(100, DEF_MEM)),
        Arguments.argumentSet(
            "scalars follow the same formula",
            Pods.pod("p")
                .req("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "1")
                .init("cpu", "1", "memory", "1Gi", "nvidia.com/gpu", "2"),
            new Resource(1000, GI, 0, 0, Map.of("nvidia.com/gpu", 2L)),
            new Resource(1000, GI, 0, 0, Map.of("nvidia.com/gpu", 2L))));
  }

  @ParameterizedTest
  @MethodSource("requests")
  void effectiveAndNonZeroRequests(Pods pod, Resource want, Resource wantNonZero) {
    assertThat(PodRequests.of(pod.obj().getSpec())).isEqualTo(want);
    assertThat(PodRequests.withDefaults(pod.obj().getSpec())).isEqualTo(wantNonZero);
    assertThat(PodRequests.withDefaults(pod.obj().getSpec(), want)).isEqualTo(wantNonZero);
    PodInfo info = pod.info();
    assertThat(info.requests()).isEqualTo(want);
    assertThat(new long[] {info.nonZeroMilliCpu(), info.nonZeroMemory()})
        .containsExactly(wantNonZero.milliCpu(), wantNonZero.memory());
  }
}
