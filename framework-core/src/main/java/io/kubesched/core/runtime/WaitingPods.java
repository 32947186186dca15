package io.kubesched.core.runtime;

import io.kubesched.core.config.GoDuration;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Status;
import io.kubesched.framework.WaitingPod;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pods held at Permit, by UID, shared by all profiles (kube's {@code waitingPodsMap}).
 *
 * <p>Each waiting plugin of a pod has a timer on the injected {@link ScheduledExecutorService} that
 * rejects the pod with {@code "rejected due to timeout after waiting <d> at plugin <p>"}. The first
 * signal (all plugins allowed, or a rejection) completes the pod's {@link #signal future}; later
 * signals are ignored. Thread-safe.
 */
public final class WaitingPods {
  // Logged under the framework's name, where these messages were logged before the split.
  private static final Logger log = LoggerFactory.getLogger(Framework.class);

  private final ScheduledExecutorService timers;
  private final Map<String, Entry> pods = new ConcurrentHashMap<>();

  /** Creates an empty map whose timeouts run on {@code timers}. */
  public WaitingPods(ScheduledExecutorService timers) {
    this.timers = Objects.requireNonNull(timers, "timers must not be null");
  }

  /**
   * Registers {@code pod} as waiting on {@code nodeName} for the given plugins, each with its
   * maximum wait, and starts their timers. Replaces an earlier entry for the same UID.
   *
   * @return the waiting pod
   */
  public WaitingPod add(PodInfo pod, String nodeName, Map<String, Duration> pluginWaitTimes) {
    Entry e = new Entry(pod, nodeName);
    pods.put(pod.uid(), e);
    e.start(pluginWaitTimes);
    return e;
  }

  /** Returns the waiting pod with {@code uid}, or {@code null}. */
  public WaitingPod get(String uid) {
    return pods.get(uid);
  }

  /** Calls {@code action} for every waiting pod. */
  public void iterate(Consumer<WaitingPod> action) {
    for (Entry e : pods.values()) {
      action.accept(e);
    }
  }

  /** Removes the waiting pod with {@code uid}, if any. */
  public void remove(String uid) {
    pods.remove(uid);
  }

  /** Returns the number of waiting pods. */
  public int size() {
    return pods.size();
  }

  /**
   * Rejects the waiting pod with {@code uid} on behalf of {@code plugin} with {@code message};
   * returns whether there was one.
   */
  public boolean reject(String uid, String plugin, String message) {
    Entry e = pods.get(uid);
    if (e == null) {
      return false;
    }
    e.reject(plugin, message);
    return true;
  }

  /**
   * Returns the future completed by the first signal for the pod with {@code uid}: Success once
   * every plugin allowed it, else Unschedulable attributed to the rejecting plugin; {@code null}
   * when the pod is not waiting.
   */
  public CompletableFuture<Status> signal(String uid) {
    Entry e = pods.get(uid);
    return e == null ? null : e.signal;
  }

  /**
   * Returns a future completed when the pod waiting at Permit is allowed (Success) or rejected (the
   * rejection with its plugin); any other signal becomes an Error {@code waiting on permit for pod:
   * ...} (kube's {@code WaitOnPermit}). It is already complete with Success when the pod is not
   * waiting. The pod leaves the map when the future completes.
   */
  public CompletableFuture<Status> waitOnPermit(PodInfo pod) {
    CompletableFuture<Status> signal = signal(pod.uid());
    if (signal == null) {
      return CompletableFuture.completedFuture(Status.success());
    }
    return signal.thenApply(
        s -> {
          remove(pod.uid());
          if (s.isSuccess()) {
            return s;
          }
          if (s.isRejected()) {
            log.atDebug()
                .setMessage("pod rejected while waiting on permit")
                .addKeyValue("pod", pod.key())
                .addKeyValue("plugin", s.plugin())
                .addKeyValue("status", s)
                .log();
            return s;
          }
          return PluginCalls.wrapError("waiting on permit for pod: ", s).withPlugin(s.plugin());
        });
  }

  /** One waiting pod: the plugins still pending with their timers, and the one-shot signal. */
  private final class Entry implements WaitingPod {
    private final PodInfo pod;
    private final String nodeName;
    private final Map<String, ScheduledFuture<?>> pending = new LinkedHashMap<>();
    private final CompletableFuture<Status> signal = new CompletableFuture<>();

    Entry(PodInfo pod, String nodeName) {
      this.pod = pod;
      this.nodeName = nodeName;
    }

    synchronized void start(Map<String, Duration> pluginWaitTimes) {
      pluginWaitTimes.forEach(
          (plugin, wait) -> {
            String msg =
                "rejected due to timeout after waiting "
                    + GoDuration.format(wait)
                    + " at plugin "
                    + plugin;
            pending.put(
                plugin,
                timers.schedule(() -> reject(plugin, msg), wait.toNanos(), TimeUnit.NANOSECONDS));
          });
    }

    @Override
    public PodInfo pod() {
      return pod;
    }

    @Override
    public String nodeName() {
      return nodeName;
    }

    @Override
    public synchronized List<String> pendingPlugins() {
      return new ArrayList<>(pending.keySet());
    }

    @Override
    public void allow(String pluginName) {
      synchronized (this) {
        ScheduledFuture<?> timer = pending.remove(pluginName);
        if (timer != null) {
          timer.cancel(false);
        }
        if (!pending.isEmpty()) {
          return;
        }
      }
      signal.complete(Status.success());
    }

    @Override
    public void reject(String pluginName, String message) {
      synchronized (this) {
        for (ScheduledFuture<?> timer : pending.values()) {
          timer.cancel(false);
        }
      }
      signal.complete(Status.unschedulable(message).withPlugin(pluginName));
    }

    @Override
    public String toString() {
      return "WaitingPod{" + pod.key() + " on " + nodeName + ", pending=" + pendingPlugins() + "}";
    }
  }
}
