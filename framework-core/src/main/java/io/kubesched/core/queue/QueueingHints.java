package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.framework.ActionType;
import io.kubesched.framework.ClusterEvent;
import io.kubesched.framework.ClusterEventWithHint;
import io.kubesched.framework.EventResource;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.QueueingHint;
import io.kubesched.framework.QueueingHintFunction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The queueing hint map of the {@link SchedulingQueue} (kube's {@code QueueingHintMap} and {@code
 * isPodWorthRequeuing}): per profile, which plugins registered which cluster events with which hint
 * function, and from that how an event requeues a pod its plugins rejected.
 *
 * <p>A plugin that registered Node/Add without Node/UpdateNodeTaint also gets Node/UpdateNodeTaint,
 * hinted Queue (kube's {@code buildQueueingHintMap}); a missing hint function means Queue.
 * Immutable once built; the hint functions are called on the caller's thread.
 */
final class QueueingHints {
  private static final Logger LOG = LoggerFactory.getLogger(QueueingHints.class);

  private static final QueueingHintFunction QUEUE_ALWAYS = (pod, o, n) -> QueueingHint.QUEUE;

  /** How a pod should be requeued. */
  enum Strategy {
    SKIP,
    AFTER_BACKOFF,
    IMMEDIATELY
  }

  /** A hint function with the plugin that registered it. */
  private record HintFn(String plugin, QueueingHintFunction fn) {}

  private final Map<String, Map<ClusterEvent, List<HintFn>>> hintMap = new LinkedHashMap<>();
  private final Map<String, List<ClusterEvent>> pluginToEvents = new HashMap<>();

  /** Builds the hint map of the profiles (by scheduler name). */
  QueueingHints(Map<String, QueueProfile> profiles) {
    buildHintMaps(profiles);
  }

  private void buildHintMaps(Map<String, QueueProfile> profiles) {
    List<String> names = new ArrayList<>(profiles.keySet());
    names.sort(null);
    for (String profile : names) {
      Map<ClusterEvent, List<HintFn>> map = new LinkedHashMap<>();
      for (Map.Entry<String, List<ClusterEventWithHint>> e :
          profiles.get(profile).events().entrySet()) {
        String plugin = e.getKey();
        List<ClusterEventWithHint> events = e.getValue();
        if (events == null || events.isEmpty()) {
          continue;
        }
        boolean nodeAdded = false;
        boolean nodeTaint = false;
        for (ClusterEventWithHint ev : events) {
          QueueingHintFunction fn = ev.hint() == null ? QUEUE_ALWAYS : ev.hint();
          if (EventResource.NODE.equals(ev.event().resource())) {
            nodeAdded |= (ev.event().actionType() & ActionType.ADD) != 0;
            nodeTaint |= (ev.event().actionType() & ActionType.UPDATE_NODE_TAINT) != 0;
          }
          map.computeIfAbsent(ev.event(), k -> new ArrayList<>()).add(new HintFn(plugin, fn));
        }
        if (nodeAdded && !nodeTaint) {
          map.computeIfAbsent(
                  ClusterEvent.of(EventResource.NODE, ActionType.UPDATE_NODE_TAINT),
                  k -> new ArrayList<>())
              .add(new HintFn(plugin, QUEUE_ALWAYS));
        }
      }
      hintMap.put(profile, map);
      for (Map.Entry<ClusterEvent, List<HintFn>> e : map.entrySet()) {
        for (HintFn h : e.getValue()) {
          pluginToEvents.computeIfAbsent(h.plugin(), k -> new ArrayList<>()).add(e.getKey());
        }
      }
    }
  }

  /** Returns whether any profile registered an event matching {@code event} (wildcards match). */
  boolean isEventOfInterest(ClusterEvent event) {
    if (event.isWildcard()) {
      return true;
    }
    for (Map<ClusterEvent, List<HintFn>> map : hintMap.values()) {
      for (ClusterEvent registered : map.keySet()) {
        if (registered.matches(event)) {
          return true;
        }
      }
    }
    return false;
  }

  private static Set<String> rejectors(QueuedPodInfo p) {
    if (p.pendingPlugins().isEmpty()) {
      return p.unschedulablePlugins();
    }
    Set<String> all = new HashSet<>(p.unschedulablePlugins());
    all.addAll(p.pendingPlugins());
    return all;
  }

  /** Decides how {@code event} requeues {@code p}, from its rejecting plugins' hints. */
  Strategy strategy(QueuedPodInfo p, ClusterEvent event, Object oldObj, Object newObj) {
    Set<String> rejectors = rejectors(p);
    if (rejectors.isEmpty()) {
      return Strategy.AFTER_BACKOFF;
    }
    if (event.isWildcard()) {
      if (newObj != null) {
        if (!(newObj instanceof V1Pod target) || !PodInfo.uidOf(target).equals(p.podInfo().uid())) {
          return Strategy.SKIP;
        }
      }
      return Strategy.AFTER_BACKOFF;
    }
    Map<ClusterEvent, List<HintFn>> map = hintMap.get(p.podInfo().schedulerName());
    if (map == null) {
      LOG.atError()
          .addKeyValue("pod", p.podInfo().key())
          .log("No QueueingHintMap is registered for this profile");
      return Strategy.AFTER_BACKOFF;
    }
    V1Pod pod = p.podInfo().pod();
    Strategy strategy = Strategy.SKIP;
    for (Map.Entry<ClusterEvent, List<HintFn>> e : map.entrySet()) {
      if (!e.getKey().matches(event)) {
        continue;
      }
      for (HintFn h : e.getValue()) {
        if (!rejectors.contains(h.plugin())) {
          continue;
        }
        QueueingHint hint;
        try {
          hint = h.fn().hint(pod, oldObj, newObj);
          if (hint == null) {
            hint = QueueingHint.QUEUE;
          }
        } catch (Exception ex) {
          LOG.atError()
              .setCause(ex)
              .addKeyValue("pod", p.podInfo().key())
              .addKeyValue("plugin", h.plugin())
              .addKeyValue("event", event.label())
              .log("QueueingHintFn returns error");
          hint = QueueingHint.QUEUE;
        }
        if (hint == QueueingHint.SKIP) {
          continue;
        }
        if (p.pendingPlugins().contains(h.plugin())) {
          return Strategy.IMMEDIATELY;
        }
        if (p.pendingPlugins().isEmpty()) {
          return Strategy.AFTER_BACKOFF;
        }
        strategy = Strategy.AFTER_BACKOFF;
      }
    }
    return strategy;
  }

  /** Returns whether the plugin gating {@code p} registered an event matching {@code event}. */
  boolean matchesGatingPlugin(QueuedPodInfo p, ClusterEvent event) {
    List<ClusterEvent> events = pluginToEvents.get(p.gatingPlugin());
    if (events == null) {
      return false;
    }
    for (ClusterEvent registered : events) {
      if (registered.matches(event)) {
        return true;
      }
    }
    return false;
  }
}
