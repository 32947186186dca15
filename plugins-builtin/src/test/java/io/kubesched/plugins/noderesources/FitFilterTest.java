package io.kubesched.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.SchedulingException;
import io.kubesched.framework.Status;
import io.kubesched.testing.BoundFaces;
import io.kubesched.testing.MakeNode;
import io.kubesched.testing.MakePod;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ports {@code TestEnoughRequests}, {@code TestNotEnoughRequests} and {@code TestStorageRequests}.
 */
final class FitFilterTest {
  private static final String EXT_A = "example.com/aaa";
  private static final String EXT_B = "example.com/bbb";
  private static final String K8S_A = "kubernetes.io/something";
  private static final String K8S_B = "subdomain.kubernetes.io/something";
  private static final String HUGE_A = "hugepages-2Mi";
  private static final NodeResourcesFitArgs DEFAULT_ARGS = NodeResourcesFitArgs.defaults();

  /** A pod whose single container requests {@code milliCpu} and {@code memory}. */
  private static MakePod pod(long milliCpu, long memory, String... more) {
    String[] pairs = new String[4 + more.length];
    pairs[0] = "cpu";
    pairs[1] = milliCpu + "m";
    pairs[2] = "memory";
    pairs[3] = Long.toString(memory);
    System.arraycopy(more, 0, pairs, 4, more.length);
    return MakePod.pod().name("p").req(pairs);
  }

  /**
   * The node of kube's test: cpu 10m, memory 20, pods 32, example.com/aaa 5, storage 20, 2Mi pages
   * 5.
   */
  private static NodeInfo node(PodInfo existing) {
    return MakeNode.node()
        .name("n")
        .capacity(
            "cpu",
            "10m",
            "memory",
            "20",
            "pods",
            "32",
            EXT_A,
            "5",
            "ephemeral-storage",
            "20",
            HUGE_A,
            "5")
        .info(existing);
  }

  private static PodInfo existing(long milliCpu, long memory, String... more) {
    return pod(milliCpu, memory, more).name("existing").node("n").info();
  }

  private static String insufficient(String resource) {
    return "Insufficient " + resource;
  }

  static Stream<Arguments> enoughRequests() {
    return Stream.of(
        argumentSet(
            "no resources requested always fits",
            MakePod.pod().name("p").info(),
            existing(10, 20),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "too many resources fails",
            pod(1, 1).info(),
            existing(10, 20),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("cpu"), insufficient("memory"))),
        argumentSet(
            "too many resources fails due to init container cpu",
            pod(1, 1).initReq("cpu", "3m", "memory", "1").info(),
            existing(8, 19),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("cpu"))),
        argumentSet(
            "too many resources fails due to highest init container cpu",
            pod(1, 1)
                .initReq("cpu", "3m", "memory", "1")
                .initReq("cpu", "2m", "memory", "1")
                .info(),
            existing(8, 19),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("cpu"))),
        argumentSet(
            "too many resources fails due to init container memory",
            pod(1, 1).initReq("cpu", "1m", "memory", "3").info(),
            existing(9, 19),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("memory"))),
        argumentSet(
            "init container fits because it's the max, not sum, of containers and init containers",
            pod(1, 1).initReq("cpu", "1m", "memory", "1").info(),
            existing(9, 19),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "multiple init containers fit because it's the max, not sum, of containers and init"
                + " containers",
            pod(1, 1)
                .initReq("cpu", "1m", "memory", "1")
                .initReq("cpu", "1m", "memory", "1")
                .info(),
            existing(9, 19),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "both resources fit", pod(1, 1).info(), existing(5, 5), DEFAULT_ARGS, Status.success()),
        argumentSet(
            "one resource memory fits",
            pod(2, 1).info(),
            existing(9, 5),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("cpu"))),
        argumentSet(
            "one resource cpu fits",
            pod(1, 2).info(),
            existing(5, 19),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("memory"))),
        argumentSet(
            "equal edge case", pod(5, 1).info(), existing(5, 19), DEFAULT_ARGS, Status.success()),
        argumentSet(
            "equal edge case for init container",
            pod(4, 1).initReq("cpu", "5m", "memory", "1").info(),
            existing(5, 19),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "extended resource fits",
            MakePod.pod().name("p").req(EXT_A, "1").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "extended resource fits for init container",
            MakePod.pod().name("p").req().initReq(EXT_A, "1").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "extended resource capacity enforced",
            pod(1, 1, EXT_A, "10").info(),
            existing(0, 0, EXT_A, "0"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_A))),
        argumentSet(
            "extended resource capacity enforced for init container",
            MakePod.pod().name("p").req().initReq("cpu", "1m", "memory", "1", EXT_A, "10").info(),
            existing(0, 0, EXT_A, "0"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_A))),
        argumentSet(
            "extended resource allocatable enforced",
            pod(1, 1, EXT_A, "1").info(),
            existing(0, 0, EXT_A, "5"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_A))),
        argumentSet(
            "extended resource allocatable enforced for multiple containers",
            pod(1, 1, EXT_A, "3").req("cpu", "1m", "memory", "1", EXT_A, "3").info(),
            existing(0, 0, EXT_A, "2"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_A))),
        argumentSet(
            "extended resource allocatable admits multiple init containers",
            MakePod.pod()
                .name("p")
                .req()
                .initReq("cpu", "1m", "memory", "1", EXT_A, "3")
                .initReq("cpu", "1m", "memory", "1", EXT_A, "3")
                .info(),
            existing(0, 0, EXT_A, "2"),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "extended resource allocatable enforced for multiple init containers",
            MakePod.pod()
                .name("p")
                .req()
                .initReq("cpu", "1m", "memory", "1", EXT_A, "6")
                .initReq("cpu", "1m", "memory", "1", EXT_A, "3")
                .info(),
            existing(0, 0, EXT_A, "2"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_A))),
        argumentSet(
            "extended resource allocatable enforced for unknown resource",
            pod(1, 1, EXT_B, "1").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(EXT_B))),
        argumentSet(
            "kubernetes.io resource capacity enforced",
            pod(1, 1, K8S_A, "10").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(K8S_A))),
        argumentSet(
            "kubernetes.io resource capacity enforced for init container",
            MakePod.pod().name("p").req().initReq("cpu", "1m", "memory", "1", K8S_B, "10").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(K8S_B))),
        argumentSet(
            "hugepages resource capacity enforced",
            pod(1, 1, HUGE_A, "10").info(),
            existing(0, 0, HUGE_A, "0"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(HUGE_A))),
        argumentSet(
            "hugepages resource allocatable enforced for multiple containers",
            pod(1, 1, HUGE_A, "3").req("cpu", "1m", "memory", "1", HUGE_A, "3").info(),
            existing(0, 0, HUGE_A, "2"),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient(HUGE_A))),
        argumentSet(
            "skip checking ignored extended resource",
            pod(1, 1, EXT_B, "1").info(),
            existing(0, 0),
            new NodeResourcesFitArgs(List.of(EXT_B), List.of(), null),
            Status.success()),
        argumentSet(
            "resources + pod overhead fits",
            pod(1, 1).overhead("cpu", "3m", "memory", "13").info(),
            existing(5, 5),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "requests + overhead does not fit for memory",
            pod(1, 1).overhead("cpu", "1m", "memory", "15").info(),
            existing(5, 5),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("memory"))),
        argumentSet(
            "skip checking ignored extended resource via resource groups",
            pod(1, 1, EXT_B, "1", K8S_A, "1").info(),
            existing(0, 0),
            new NodeResourcesFitArgs(List.of(), List.of("example.com"), null),
            Status.unschedulable(insufficient(K8S_A))),
        argumentSet(
            "skip checking extended resource request with quantity zero via resource groups",
            pod(1, 1, EXT_A, "0").info(),
            existing(0, 0, EXT_A, "6"),
            DEFAULT_ARGS,
            Status.success()),
        argumentSet(
            "all insufficient resources are reported together, scalar resources by name",
            pod(11, 21, "ephemeral-storage", "21", EXT_B, "1", EXT_A, "6").info(),
            existing(0, 0),
            DEFAULT_ARGS,
            Status.unschedulable(
                insufficient("cpu"),
                insufficient("memory"),
                insufficient("ephemeral-storage"),
                insufficient(EXT_A),
                insufficient(EXT_B))),
        argumentSet(
            "a restartable init container adds to the regular containers",
            MakePod.pod().name("p").req("cpu", "1m").sidecarReq("cpu", "2m").info(),
            existing(8, 0),
            DEFAULT_ARGS,
            Status.unschedulable(insufficient("cpu"))));
  }

  @ParameterizedTest
  @MethodSource("enoughRequests")
  void filter(PodInfo pod, PodInfo existing, NodeResourcesFitArgs args, Status want) {
    Fit fit = new Fit(args);
    CycleState state = new CycleState();
    assertThat(fit.preFilter(state, pod, List.of())).isEqualTo(PreFilterResult.success());
    assertThat(fit.filter(state, pod, node(existing))).isEqualTo(want);
    assertThat(fit.bindFilter(state, pod).filter(node(existing))).isEqualTo(want);
    assertThat(BoundFaces.assertFilterFaces(fit, state, pod, List.of(node(existing))))
        .containsExactly(want);
  }

  static Stream<Arguments> notEnoughPods() {
    return Stream.of(
        argumentSet(
            "even without specified resources, predicate fails when there's no space for"
                + " additional pod",
            MakePod.pod().name("p").info(),
            existing(10, 20)),
        argumentSet(
            "even if both resources fit, predicate fails when there's no space for additional pod",
            pod(1, 1).info(),
            existing(5, 5)),
        argumentSet(
            "even for equal edge case, predicate fails when there's no space for additional pod",
            pod(5, 1).info(),
            existing(5, 19)),
        argumentSet(
            "even for equal edge case, predicate fails when there's no space for additional pod"
                + " due to init container",
            pod(5, 1).initReq("cpu", "5m", "memory", "1").info(),
            existing(5, 19)));
  }

  @ParameterizedTest
  @MethodSource("notEnoughPods")
  void tooManyPods(PodInfo pod, PodInfo existing) {
    NodeInfo node =
        MakeNode.node()
            .name("n")
            .allocatable("cpu", "10m", "memory", "20", "pods", "1")
            .info(existing);
    Fit fit = new Fit(DEFAULT_ARGS);
    CycleState state = new CycleState();
    fit.preFilter(state, pod, List.of());
    assertThat(fit.filter(state, pod, node))
        .isEqualTo(Status.unschedulable(Fit.REASON_TOO_MANY_PODS));
  }

  @Test
  void tooManyPodsComesFirstAmongSeveralReasons() {
    NodeInfo node =
        MakeNode.node()
            .name("n")
            .allocatable("cpu", "10m", "memory", "20", "pods", "1")
            .info(existing(10, 0));
    PodInfo pod = pod(1, 1).info();
    Fit fit = new Fit(DEFAULT_ARGS);
    CycleState state = new CycleState();
    fit.preFilter(state, pod, List.of());
    assertThat(fit.filter(state, pod, node))
        .isEqualTo(Status.unschedulable("Too many pods", "Insufficient cpu"));
  }

  static Stream<Arguments> storageRequests() {
    return Stream.of(
        argumentSet(
            "empty storage requested, and pod fits",
            pod(1, 1).info(),
            existing(2, 10),
            Status.success()),
        argumentSet(
            "storage ephemeral local storage request exceeds allocatable",
            MakePod.pod().name("p").req("ephemeral-storage", "25").info(),
            existing(2, 2),
            Status.unschedulable("Insufficient ephemeral-storage")),
        argumentSet(
            "ephemeral local storage is sufficient",
            MakePod.pod().name("p").req("ephemeral-storage", "5").info(),
            existing(2, 2, "ephemeral-storage", "10"),
            Status.success()),
        argumentSet(
            "pod fits",
            MakePod.pod().name("p").req("ephemeral-storage", "10").info(),
            existing(2, 2),
            Status.success()));
  }

  @ParameterizedTest
  @MethodSource("storageRequests")
  void storage(PodInfo pod, PodInfo existing, Status want) {
    Fit fit = new Fit(DEFAULT_ARGS);
    CycleState state = new CycleState();
    fit.preFilter(state, pod, List.of());
    assertThat(fit.filter(state, pod, node(existing))).isEqualTo(want);
  }

  @Test
  void filterWithoutPreFilterStateIsAnError() {
    Fit fit = new Fit(DEFAULT_ARGS);
    assertThatThrownBy(
            () -> fit.filter(new CycleState(), MakePod.pod().info(), node(existing(0, 0))))
        .isInstanceOf(SchedulingException.class);
  }

  @Test
  void fitsReportsRequestedUsedAndCapacity() {
    assertThat(Fit.fits(pod(3, 1).info(), node(existing(8, 19))))
        .containsExactly(new InsufficientResource("cpu", "Insufficient cpu", 3, 8, 10));
  }
}
