package io.kubesched.testing.apiserver;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The change log of the fake API server and its open watches: every change is kept (so a watch can
 * resume from any resourceVersion) and queued, as a watch-event line, to the watches it concerns.
 * An object leaving a watch's selector is reported as {@code DELETED}, one entering it as {@code
 * ADDED}.
 *
 * <p>{@link #record} and {@link #open} run under the {@link ObjectStore}'s lock; {@link #stream}
 * and {@link #closeAll} do not need it.
 */
final class WatchLog {
  private static final String POISON = "";

  /** One change of the store. */
  record Change(long rv, Resource res, String type, JsonObject oldObj, JsonObject newObj) {}

  /** An open watch and its queue of lines still to send. */
  record Watcher(Resource res, String namespace, Selector selector, BlockingQueue<String> lines) {}

  private final List<Change> log = new ArrayList<>();
  private final List<Watcher> watchers = new CopyOnWriteArrayList<>();

  /** Appends {@code c} to the log and queues it to the open watches; caller holds the lock. */
  void record(Change c) {
    log.add(c);
    for (Watcher w : watchers) {
      String l = translate(w, c);
      if (l != null) {
        w.lines().add(l);
      }
    }
  }

  /**
   * Opens a watch of {@code res} in {@code namespace} (null: all) matching {@code selector}. With
   * {@code current} non-null the watch starts with an {@code ADDED} line per current object, else
   * with the logged changes after resourceVersion {@code since}. Caller holds the lock.
   */
  Watcher open(
      Resource res, String namespace, Selector selector, Iterable<JsonObject> current, long since) {
    Watcher w = new Watcher(res, namespace, selector, new LinkedBlockingQueue<>());
    if (current != null) {
      for (JsonObject o : current) {
        if (ObjectStore.inScope(o, namespace) && selector.matches(o)) {
          w.lines().add(line("ADDED", o));
        }
      }
    } else {
      for (Change c : log) {
        if (c.rv() > since && c.res().equals(res)) {
          String l = translate(w, c);
          if (l != null) {
            w.lines().add(l);
          }
        }
      }
    }
    watchers.add(w);
    return w;
  }

  /**
   * Streams the lines of {@code w} as a chunked response until {@code timeoutSeconds} pass, the
   * client goes away or the server closes; then closes the watch.
   */
  void stream(HttpExchange ex, Watcher w, long timeoutSeconds) {
    try {
      ex.getResponseHeaders().set("Content-Type", "application/json");
      ex.getResponseHeaders().set("Transfer-Encoding", "chunked");
      ex.sendResponseHeaders(200, 0);
      OutputStream out = ex.getResponseBody();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
      while (true) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        String l = w.lines().poll(left, TimeUnit.NANOSECONDS);
        if (l == null || l.equals(POISON)) {
          break;
        }
        out.write(l.getBytes(StandardCharsets.UTF_8));
        out.write('\n');
        out.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away
    } finally {
      watchers.remove(w);
    }
  }

  /** Ends every open watch. */
  void closeAll() {
    for (Watcher w : watchers) {
      w.lines().offer(POISON);
    }
  }

  private static String translate(Watcher w, Change c) {
    if (!w.res().equals(c.res())) {
      return null;
    }
    boolean oldIn =
        c.oldObj() != null
            && ObjectStore.inScope(c.oldObj(), w.namespace())
            && w.selector().matches(c.oldObj());
    boolean newIn =
        c.newObj() != null
            && ObjectStore.inScope(c.newObj(), w.namespace())
            && w.selector().matches(c.newObj());
    return switch (c.type()) {
      case "ADDED" -> newIn ? line("ADDED", c.newObj()) : null;
      case "DELETED" -> oldIn ? line("DELETED", c.newObj()) : null;
      default -> {
        if (oldIn && newIn) {
          yield line("MODIFIED", c.newObj());
        } else if (newIn) {
          yield line("ADDED", c.newObj());
        } else if (oldIn) {
          yield line("DELETED", c.newObj());
        }
        yield null;
      }
    };
  }

  private static String line(String type, JsonObject o) {
    JsonObject e = new JsonObject();
    e.addProperty("type", type);
    e.add("object", o);
    return Json.GSON.toJson(e);
  }
}
