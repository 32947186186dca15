package io.kubesched.core.runtime;

import static io.kubesched.core.runtime.Fixtures.basePlugins;
import static io.kubesched.core.runtime.Fixtures.binder;
import static io.kubesched.core.runtime.Fixtures.queueSort;
import static org.assertj.core.api.Assertions.assertThat;

import io.kubesched.framework.Plugin;
import io.kubesched.framework.Status;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Framework#signPod}: the signature joins the fragments of every PreFilter, Filter, PreScore
 * and Score plugin; one that does not sign turns batching off for the pod.
 */
final class FrameworkSignPodTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.argumentSet(
            "every Filter plugin signs: fragments in order",
            List.of(
                Fake.plugin("A").filter(Status.success()).sign(p -> Optional.of("a:" + p.name())),
                Fake.plugin("B").filter(Status.success()).sign(p -> Optional.of(""))),
            Optional.of(new PodSignature("a:p1", ""))),
        Arguments.argumentSet(
            "a Filter plugin without SignPlugin: unsignable",
            List.of(
                Fake.plugin("A").filter(Status.success()).sign(p -> Optional.of("a")),
                Fake.plugin("B").filter(Status.success())),
            Optional.empty()),
        Arguments.argumentSet(
            "a plugin returns empty: unsignable",
            List.of(
                Fake.plugin("A").filter(Status.success()).sign(p -> Optional.of("a")),
                Fake.plugin("B").filter(Status.success()).sign(p -> Optional.empty())),
            Optional.empty()),
        Arguments.argumentSet(
            "a plugin throws: unsignable",
            List.of(
                Fake.plugin("A")
                    .filter(Status.success())
                    .sign(
                        p -> {
                          throw new IllegalStateException("boom");
                        })),
            Optional.empty()));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void signature(List<Fake.Builder> filters, Optional<PodSignature> want) {
    Fixtures.PluginsBuilder pb = basePlugins();
    Plugin[] plugins = new Plugin[filters.size() + 2];
    plugins[0] = queueSort();
    plugins[1] = binder();
    for (int i = 0; i < filters.size(); i++) {
      plugins[i + 2] = filters.get(i).build();
      pb.enable("filter", plugins[i + 2].name());
    }
    try (Framework f =
        Framework.create(pb.profile(), 0, Fake.registry(plugins), Fixtures.context())) {
      assertThat(f.signPod(Fixtures.pod("p1"))).isEqualTo(want);
    }
  }
}
