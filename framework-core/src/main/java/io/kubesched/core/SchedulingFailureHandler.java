package io.kubesched.core;

import static io.kubesched.core.Pods.assigned;
import static io.kubesched.core.Pods.nodeName;

import io.kubernetes.client.openapi.models.V1Pod;
import io.kubesched.core.cache.SchedulerCache;
import io.kubesched.core.cluster.Cluster;
import io.kubesched.core.metrics.SchedulerMetrics;
import io.kubesched.core.queue.SchedulingQueue;
import io.kubesched.core.runtime.EngineAccess;
import io.kubesched.core.runtime.FitError;
import io.kubesched.core.runtime.Framework;
import io.kubesched.framework.CycleState;
import io.kubesched.framework.EventRecorder;
import io.kubesched.framework.NominatingInfo;
import io.kubesched.framework.PodInfo;
import io.kubesched.framework.QueuedPodInfo;
import io.kubesched.framework.Status;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles a failed scheduling attempt, from either cycle (kube's {@code handleSchedulingFailure}
 * and the unreserve-and-forget rollback of {@code schedule_one.go}): undoes an assumed pod, then
 * requeues the pod, updates its nomination, emits a {@code FailedScheduling} event and patches
 * {@code PodScheduled=False}.
 */
final class SchedulingFailureHandler {
  private static final Logger log = LoggerFactory.getLogger(SchedulingFailureHandler.class);

  /** The event message limit ({@code NoteLengthLimit}); longer messages are truncated. */
  static final int NOTE_LENGTH_LIMIT = 1024;

  private final Cluster cluster;
  private final SchedulerCache cache;
  private final SchedulingQueue queue;
  private final SchedulerMetrics metrics;

  SchedulingFailureHandler(
      Cluster cluster, SchedulerCache cache, SchedulingQueue queue, SchedulerMetrics metrics) {
    this.cluster = cluster;
    this.cache = cache;
    this.queue = queue;
    this.metrics = metrics;
  }

  /**
   * Runs the Unreserve plugins for an assumed pod and forgets it in the cache; failures are logged.
   *
   * @return whether the cache forgot the pod (its resources are free again)
   */
  boolean unreserveAndForget(Framework fwk, CycleState state, PodInfo assumed, String host) {
    try {
      fwk.runReservePluginsUnreserve(state, assumed, host);
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("Unreserve failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
    }
    try {
      cache.forgetPod(assumed);
      return true;
    } catch (RuntimeException e) {
      log.atWarn()
          .setMessage("cache forgetPod failed")
          .addKeyValue("pod", assumed.key())
          .setCause(e)
          .log();
      return false;
    }
  }

  /**
   * Records a failed attempt (kube's {@code handleSchedulingFailure}): requeues the pod as
   * unschedulable (or with backoff) unless it is gone or bound meanwhile, updates its nomination,
   * emits a {@code FailedScheduling} event and patches {@code PodScheduled=False}. Always ends the
   * pod's in-flight state in the queue. Never throws.
   *
   * @param startNanos the attempt's start ({@link System#nanoTime()}), for the attempt metric
   */
  void handle(
      Framework fwk,
      QueuedPodInfo qpi,
      V1Pod pod,
      Status status,
      NominatingInfo nominatingInfo,
      long startNanos) {
    NominatingInfo ni = nominatingInfo == null ? NominatingInfo.noop() : nominatingInfo;
    String uid = qpi.podInfo().uid();
    boolean calledDone = false;
    try {
      boolean rejected = status.isRejected();
      String reason = rejected ? Scheduler.REASON_UNSCHEDULABLE : Scheduler.REASON_SCHEDULER_ERROR;
      metrics.scheduleAttempt(
          rejected ? "unschedulable" : "error",
          fwk.profileName(),
          Duration.ofNanos(System.nanoTime() - startNanos));
      String errMsg = status.message();
      if (status.cause() instanceof FitError fitError) {
        EngineAccess.mutableUnschedulablePlugins(qpi).clear();
        EngineAccess.mutableUnschedulablePlugins(qpi)
            .addAll(fitError.diagnosis().unschedulablePlugins());
        EngineAccess.mutablePendingPlugins(qpi).clear();
        EngineAccess.mutablePendingPlugins(qpi).addAll(fitError.diagnosis().pendingPlugins());
        log.atDebug()
            .setMessage("unable to schedule pod; no fit; waiting")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("err", errMsg)
            .log();
      } else if (!Scheduler.NO_NODES_AVAILABLE.equals(errMsg)) {
        log.atWarn()
            .setMessage("error scheduling pod; retrying")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("err", errMsg)
            .log();
      }
      Optional<V1Pod> cached =
          cluster.getPod(pod.getMetadata().getNamespace(), pod.getMetadata().getName());
      if (cached.isEmpty()) {
        log.atInfo()
            .setMessage("pod doesn't exist in informer cache")
            .addKeyValue("pod", qpi.podInfo().key())
            .log();
      } else if (assigned(cached.get())) {
        log.atInfo()
            .setMessage("pod has been assigned to node; abort adding it back to queue")
            .addKeyValue("pod", qpi.podInfo().key())
            .addKeyValue("node", nodeName(cached.get()))
            .log();
      } else {
        EngineAccess.setPodInfo(qpi, PodInfo.of(cached.get()));
        queue.addUnschedulableIfNotPresent(qpi, queue.schedulingCycle());
        calledDone = true;
      }
      queue.addNominatedPod(qpi.podInfo(), ni);
      fwk.eventRecorder()
          .event(
              pod,
              EventRecorder.WARNING,
              "FailedScheduling",
              "Scheduling",
              truncateMessage(errMsg));
      cluster.patchPodScheduledCondition(
          pod, reason, errMsg, ni.mode() == NominatingInfo.Mode.OVERRIDE ? ni.nodeName() : null);
    } catch (RuntimeException e) {
      log.atError()
          .setMessage("failure handling failed")
          .addKeyValue("pod", qpi.podInfo().key())
          .setCause(e)
          .log();
    } finally {
      if (!calledDone) {
        queue.done(uid);
      }
    }
  }

  /** Truncates {@code message} to kube's event note limit (1024 bytes), ending with " ...". */
  static String truncateMessage(String message) {
    byte[] bytes = message.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= NOTE_LENGTH_LIMIT) {
      return message;
    }
    String suffix = " ...";
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.IGNORE)
            .onUnmappableCharacter(CodingErrorAction.IGNORE);
    CharBuffer out = CharBuffer.allocate(NOTE_LENGTH_LIMIT);
    decoder.decode(ByteBuffer.wrap(bytes, 0, NOTE_LENGTH_LIMIT - suffix.length()), out, true);
    out.flip();
    return out + suffix;
  }
}
