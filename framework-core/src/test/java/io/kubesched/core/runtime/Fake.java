package io.kubesched.core.runtime;

import io.kubesched.framework.BindPlugin;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EnqueueExtensions;
import io.kubesched.framework.FilterPlugin;
import io.kubesched.framework.FrameworkHandle;
import io.kubesched.framework.NoArgs;
import io.kubesched.framework.NodeInfo;
import io.kubesched.framework.NodeScores;
import io.kubesched.framework.NodeToStatusReader;
import io.kubesched.framework.PermitPlugin;
import io.kubesched.framework.PermitResult;
import io.kubesched.framework.Plugin;
import io.kubesched.framework.PluginProvider;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.PostBindPlugin;
import io.kubesched.framework.PostFilterPlugin;
import io.kubesched.framework.PostFilterResult;
import io.kubesched.framework.PreBindPlugin;
import io.kubesched.framework.PreEnqueuePlugin;
import io.kubesched.framework.PreFilterExtensions;
import io.kubesched.framework.PreFilterPlugin;
import io.kubesched.framework.PreFilterResult;
import io.kubesched.framework.PreScorePlugin;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.ReservePlugin;
import io.kubesched.framework.ScoreExtensions;
import io.kubesched.framework.ScorePlugin;
import io.kubesched.framework.Status;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Fake plugins for the runtime tests: a builder that records a behaviour per method and builds a
 * proxy implementing exactly the extension-point interfaces that were given a behaviour (so that
 * MultiPoint expansion sees the right interfaces). Every call is appended to a shared journal as
 * {@code "<plugin>.<method>"} (plus {@code "@<node>"} for per-node calls).
 */
final class Fake {
  private Fake() {}

  /** A behaviour: receives the call's arguments, returns its result. */
  @FunctionalInterface
  interface Call {
    Object apply(Object[] args);
  }

  static Builder plugin(String name) {
    return new Builder(name);
  }

  /** Collects the interfaces and behaviours of one fake plugin. */
  static final class Builder {
    private final String name;
    private final Set<Class<?>> interfaces = new LinkedHashSet<>();
    private final Map<String, Call> calls = new LinkedHashMap<>();
    private List<String> journal = Collections.synchronizedList(new ArrayList<>());

    private Builder(String name) {
      this.name = name;
    }

    Builder journal(List<String> journal) {
      this.journal = journal;
      return this;
    }

    private Builder on(Class<?> type, String method, Call call) {
      interfaces.add(type);
      calls.put(method, call);
      return this;
    }

    /** Implements {@code types} with default (success) behaviour. */
    Builder implementing(Class<?>... types) {
      interfaces.addAll(List.of(types));
      return this;
    }

    Builder preEnqueue(Function<PodInfo, Status> f) {
      return on(PreEnqueuePlugin.class, "preEnqueue", a -> f.apply((PodInfo) a[0]));
    }

    Builder queueSort() {
      return on(QueueSortPlugin.class, "less", a -> false);
    }

    Builder preFilter(PreFilterResult r) {
      return on(PreFilterPlugin.class, "preFilter", a -> r);
    }

    Builder preFilter(Function<CycleState, PreFilterResult> f) {
      return on(PreFilterPlugin.class, "preFilter", a -> f.apply((CycleState) a[0]));
    }

    Builder addPod(Status s) {
      interfaces.add(PreFilterPlugin.class);
      return on(PreFilterExtensions.class, "addPod", a -> s);
    }

    Builder addPod(Call c) {
      interfaces.add(PreFilterPlugin.class);
      return on(PreFilterExtensions.class, "addPod", c);
    }

    Builder removePod(Status s) {
      interfaces.add(PreFilterPlugin.class);
      return on(PreFilterExtensions.class, "removePod", a -> s);
    }

    /** Implements {@link io.kubesched.framework.SignPlugin} with {@code f}. */
    Builder sign(Function<PodInfo, java.util.Optional<String>> f) {
      return on(io.kubesched.framework.SignPlugin.class, "signPod", x -> f.apply((PodInfo) x[0]));
    }

    Builder filter(Status s) {
      return on(FilterPlugin.class, "filter", a -> s);
    }

    /** Filter by node: {@code f} gets the node info. */
    Builder filter(Function<NodeInfo, Status> f) {
      return on(FilterPlugin.class, "filter", a -> f.apply((NodeInfo) a[2]));
    }

    Builder filterCall(Call c) {
      return on(FilterPlugin.class, "filter", c);
    }

    Builder postFilter(Function<NodeToStatusReader, PostFilterResult> f) {
      return on(PostFilterPlugin.class, "postFilter", a -> f.apply((NodeToStatusReader) a[2]));
    }

    Builder preScore(Status s) {
      return on(PreScorePlugin.class, "preScore", a -> s);
    }

    /** Score by node: {@code f} gets the node info. */
    Builder score(Function<NodeInfo, Long> f) {
      return on(ScorePlugin.class, "score", a -> f.apply((NodeInfo) a[2]));
    }

    Builder normalize(Function<NodeScores, Status> f) {
      interfaces.add(ScorePlugin.class);
      return on(ScoreExtensions.class, "normalizeScore", a -> f.apply((NodeScores) a[2]));
    }

    Builder reserve(Status s) {
      calls.putIfAbsent("unreserve", a -> null);
      return on(ReservePlugin.class, "reserve", a -> s);
    }

    Builder permit(PermitResult r) {
      return on(PermitPlugin.class, "permit", a -> r);
    }

    Builder preBind(Status s) {
      return on(PreBindPlugin.class, "preBind", a -> s);
    }

    Builder bind(Status s) {
      return on(BindPlugin.class, "bind", a -> s);
    }

    Builder postBind() {
      return on(PostBindPlugin.class, "postBind", a -> null);
    }

    Builder postBindThrowing() {
      return on(
          PostBindPlugin.class,
          "postBind",
          a -> {
            throw new IllegalStateException("postBind failed");
          });
    }

    Builder events(List<ClusterEventWithHint> events) {
      return on(EnqueueExtensions.class, "eventsToRegister", a -> events);
    }

    /** Makes every call of {@code method} throw {@code e}. */
    Builder throwing(String method, RuntimeException e) {
      calls.put(
          method,
          a -> {
            throw e;
          });
      return this;
    }

    Plugin build() {
      Set<Class<?>> types = new LinkedHashSet<>();
      types.add(Plugin.class);
      types.addAll(interfaces);
      List<String> j = journal;
      return (Plugin)
          Proxy.newProxyInstance(
              Fake.class.getClassLoader(),
              types.toArray(new Class<?>[0]),
              (proxy, method, args) -> {
                String m = method.getName();
                switch (m) {
                  case "name":
                    return name;
                  case "toString":
                    return "Fake[" + name + "]";
                  case "hashCode":
                    return System.identityHashCode(proxy);
                  case "equals":
                    return proxy == args[0];
                  default:
                    break;
                }
                String entry = name + "." + m;
                if (args != null && args.length >= 3 && args[2] instanceof NodeInfo n) {
                  entry += "@" + n.name();
                }
                if (args != null && args.length >= 3 && args[2] instanceof String node) {
                  entry += "@" + node;
                }
                if (args != null && args.length == 4 && args[3] instanceof NodeInfo n) {
                  entry += "@" + n.name();
                }
                j.add(entry);
                Call c = calls.get(m);
                if (c != null) {
                  return c.apply(args);
                }
                return defaultResult(m, method.getReturnType());
              });
    }

    private static Object defaultResult(String m, Class<?> type) {
      if (m.equals("preFilter")) {
        return PreFilterResult.success();
      }
      if (m.equals("permit")) {
        return PermitResult.allow();
      }
      if (m.equals("postFilter")) {
        return PostFilterResult.of(Status.unschedulable());
      }
      if (m.equals("eventsToRegister")) {
        return List.of();
      }
      if (type == Status.class) {
        return Status.success();
      }
      if (type == long.class) {
        return 0L;
      }
      if (type == boolean.class) {
        return false;
      }
      return null;
    }
  }

  /** A provider returning a fresh plugin from {@code factory} and counting the calls. */
  static final class Provider implements PluginProvider<NoArgs> {
    final String name;
    final Function<FrameworkHandle, Plugin> factory;
    int created;

    Provider(String name, Function<FrameworkHandle, Plugin> factory) {
      this.name = name;
      this.factory = factory;
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
      return Plugin.class;
    }

    @Override
    public Plugin create(NoArgs args, FrameworkHandle handle) {
      created++;
      return factory.apply(handle);
    }
  }

  /** Returns a registry holding a provider for each plugin (returning that instance). */
  static PluginRegistry registry(Plugin... plugins) {
    PluginRegistry r = PluginRegistry.empty();
    for (Plugin p : plugins) {
      r.register(new Provider(p.name(), h -> p));
    }
    return r;
  }

  /** Unwraps reflection wrappers (tests compare messages). */
  static Throwable root(Throwable t) {
    return t instanceof InvocationTargetException ite ? ite.getCause() : t;
  }
}
