package io.kubesched.core.kubernetes;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.custom.V1Patch;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.kubernetes.client.util.PatchUtils;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes core/v1 Events for {@link KubernetesCluster} on a thread of its own, counting repeats of
 * the same event (object, type, reason, source, message) in the first one's {@code count} and
 * {@code lastTimestamp}, as kube's event correlator does (simplified). A failed write is logged and
 * dropped; the scheduler never waits for events.
 */
final class KubernetesEvents implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(KubernetesEvents.class);

  private final ApiClient client;
  private final CoreV1Api core;
  private final Clock clock;
  private final ExecutorService eventWriter =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "kubesched-events");
            t.setDaemon(true);
            return t;
          });

  /** Events written, by correlation key; only the event writer thread touches it. */
  private final Map<String, Written> written =
      new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Written> eldest) {
          return size() > 4096;
        }
      };

  KubernetesEvents(ApiClient client, Clock clock) {
    this.client = client;
    this.core = new CoreV1Api(client);
    this.clock = clock;
  }

  /** Stops the writer; events not yet written are dropped. */
  @Override
  public void close() {
    eventWriter.shutdownNow();
  }

  /** Queues an event about {@code regarding} from {@code component}; non-objects are ignored. */
  void record(
      String component,
      Object regarding,
      String type,
      String reason,
      String action,
      String message) {
    if (!(regarding instanceof KubernetesObject o) || o.getMetadata() == null) {
      return;
    }
    V1ObjectMeta meta = o.getMetadata();
    String kind = o.getKind() != null ? o.getKind() : o.getClass().getSimpleName().substring(2);
    String namespace = meta.getNamespace() == null ? "default" : meta.getNamespace();
    OffsetDateTime now = OffsetDateTime.ofInstant(clock.instant(), ZoneOffset.UTC);
    CoreV1Event e =
        new CoreV1Event()
            .metadata(new V1ObjectMeta().generateName(meta.getName() + ".").namespace(namespace))
            .involvedObject(
                new V1ObjectReference()
                    .kind(kind)
                    .apiVersion(o.getApiVersion() == null ? "v1" : o.getApiVersion())
                    .namespace(meta.getNamespace())
                    .name(meta.getName())
                    .uid(meta.getUid()))
            .type(type)
            .reason(reason)
            .action(action)
            .message(message)
            .source(new V1EventSource().component(component))
            .reportingComponent(component)
            .reportingInstance(component)
            .firstTimestamp(now)
            .lastTimestamp(now)
            .count(1);
    try {
      eventWriter.execute(
          () -> {
            try {
              write(namespace, e, now);
            } catch (ApiException | RuntimeException ex) {
              log.atWarn()
                  .setMessage("cannot write event {} about {}/{}: {}")
                  .addArgument(reason)
                  .addArgument(namespace)
                  .addArgument(meta.getName())
                  .addArgument(ex.getMessage())
                  .log();
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException ex) {
      // closed: events are dropped
    }
  }

  /** An event already written, for counting repeats (kube's event correlator, simplified). */
  private record Written(String name, int count) {}

  /**
   * Creates the event, or when the same event (object, type, reason, message) was written before by
   * this cluster, raises its {@code count} and {@code lastTimestamp}. Runs on the event writer.
   */
  private void write(String namespace, CoreV1Event e, OffsetDateTime now) throws ApiException {
    V1ObjectReference o = e.getInvolvedObject();
    String key =
        String.join(
            "\u0000",
            namespace,
            o.getKind(),
            o.getName(),
            String.valueOf(o.getUid()),
            e.getType(),
            e.getReason(),
            e.getSource().getComponent(),
            String.valueOf(e.getMessage()));
    Written before = written.get(key);
    if (before != null) {
      int count = before.count() + 1;
      String patch =
          "{\"count\":"
              + count
              + ",\"lastTimestamp\":\""
              + now.toInstant().truncatedTo(ChronoUnit.SECONDS)
              + "\"}";
      try {
        PatchUtils.patch(
            CoreV1Event.class,
            () ->
                core.patchNamespacedEvent(before.name(), namespace, new V1Patch(patch))
                    .buildCall(null),
            V1Patch.PATCH_FORMAT_JSON_MERGE_PATCH,
            client);
        written.put(key, new Written(before.name(), count));
        return;
      } catch (ApiException ex) {
        if (ex.getCode() != 404) {
          throw ex;
        }
        written.remove(key);
      }
    }
    CoreV1Event created = core.createNamespacedEvent(namespace, e).execute();
    written.put(key, new Written(created.getMetadata().getName(), 1));
  }
}
