package io.kubesched.core.queue;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1PodSchedulingGate;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodStatus;
import io.kubesched.framework.QueueSortPlugin;
import io.kubesched.framework.QueuedPodInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * Small builders for queue tests (framework-testing depends on core, so it cannot be used here).
 */
final class QueueFixtures {
  private QueueFixtures() {}

  /** A clock the test moves by hand. */
  static final class TestClock extends Clock {
    private Instant now;

    TestClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    void set(Instant t) {
      now = t;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  /** kube's PrioritySort: higher priority first, then earlier timestamp. */
  static final class PrioritySort implements QueueSortPlugin {
    @Override
    public String name() {
      return "PrioritySort";
    }

    @Override
    public boolean less(QueuedPodInfo a, QueuedPodInfo b) {
      int p1 = a.podInfo().priority();
      int p2 = b.podInfo().priority();
      return p1 > p2 || (p1 == p2 && a.timestamp().isBefore(b.timestamp()));
    }
  }

  static V1Pod pod(String name) {
    return pod(name, 0);
  }

  static V1Pod pod(String name, int priority) {
    return new V1Pod()
        .metadata(new V1ObjectMeta().name(name).namespace("ns").uid("uid-" + name))
        .spec(new V1PodSpec().priority(priority))
        .status(new V1PodStatus());
  }

  static V1Pod withLabel(V1Pod pod, String k, String v) {
    V1Pod copy = copy(pod);
    copy.getMetadata().setLabels(Map.of(k, v));
    return copy;
  }

  static V1Pod gated(V1Pod pod, String gate) {
    V1Pod copy = copy(pod);
    copy.getSpec().addSchedulingGatesItem(new V1PodSchedulingGate().name(gate));
    return copy;
  }

  static V1Pod ungated(V1Pod pod) {
    V1Pod copy = copy(pod);
    copy.getSpec().setSchedulingGates(null);
    return copy;
  }

  static V1Pod nominated(V1Pod pod, String node) {
    V1Pod copy = copy(pod);
    copy.getStatus().setNominatedNodeName(node);
    return copy;
  }

  static V1Pod copy(V1Pod pod) {
    V1ObjectMeta m = pod.getMetadata();
    V1ObjectMeta meta =
        new V1ObjectMeta()
            .name(m.getName())
            .namespace(m.getNamespace())
            .uid(m.getUid())
            .labels(m.getLabels());
    V1PodSpec s = pod.getSpec();
    V1PodSpec spec =
        new V1PodSpec()
            .priority(s.getPriority())
            .nodeName(s.getNodeName())
            .schedulingGates(
                s.getSchedulingGates() == null
                    ? null
                    : new java.util.ArrayList<>(s.getSchedulingGates()));
    V1PodStatus status =
        new V1PodStatus()
            .nominatedNodeName(
                pod.getStatus() == null ? null : pod.getStatus().getNominatedNodeName());
    return new V1Pod().metadata(meta).spec(spec).status(status);
  }
}
