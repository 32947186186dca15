package io.kubesched.core.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubesched.framework.CycleState;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

final class PluginRegistryTest {
  /** A provider of a filter named {@code name}. */
  static class Provider implements PluginProvider<NoArgs> {
    private final String name;

    Provider(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Class<NoArgs> argsType() {
      return NoArgs.class;
    }

    @Override
    public NoArgs defaultArgs() {
      return NoArgs.INSTANCE;
    }

    @Override
    public Class<? extends Plugin> pluginType() {
      return FilterPlugin.class;
    }

    @Override
    public Plugin create(NoArgs args, FrameworkHandle handle) {
      return new FilterPlugin() {
        @Override
        public String name() {
          return name;
        }

        @Override
        public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
          return Status.success();
        }
      };
    }
  }

  static final class OtherProvider extends Provider {
    OtherProvider(String name) {
      super(name);
    }
  }

  @Test
  void registersProgrammaticallyAndListsNamesSorted() {
    PluginRegistry r =
        PluginRegistry.empty().register(new Provider("B")).register(new Provider("A"));
    assertThat(r.names()).isEqualTo(List.of("A", "B"));
    assertThat(r.contains("A")).isTrue();
    assertThat(r.get("C")).isEmpty();
  }

  @Test
  void aDuplicateNameFailsNamingBothClasses() {
    PluginRegistry r = PluginRegistry.empty().register(new Provider("Dup"));
    assertThatThrownBy(() -> r.register(new OtherProvider("Dup")))
        .isInstanceOf(PluginRegistrationException.class)
        .hasMessage(
            "a plugin named Dup already exists: "
                + Provider.class.getName()
                + " and "
                + OtherProvider.class.getName());
  }

  @Test
  void theSameProviderClassFoundTwiceIsRegisteredOnce() {
    PluginRegistry r =
        PluginRegistry.empty().register(new Provider("Same")).register(new Provider("Same"));
    assertThat(r.providers()).hasSize(1);
  }

  @Test
  void discoveryWithAClassLoaderWithoutProvidersFindsNothing() {
    ClassLoader empty = new ClassLoader(null) {};
    assertThat(PluginRegistry.empty().discover(empty).names()).isEmpty();
  }
}
