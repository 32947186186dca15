package io.kubesched.core.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link ListenerDispatcher} delivers every change once, in the order it happened, whoever queues
 * it and whatever a listener throws.
 */
final class ListenerDispatcherTest {
  private final Object lock = new Object();
  private final ListenerDispatcher dispatcher = new ListenerDispatcher(lock);
  private final List<String> heard = new ArrayList<>();

  private static V1Node node(String name) {
    return new V1Node().metadata(new V1ObjectMeta().name(name));
  }

  private static Consumer<ClusterListener> added(String name) {
    V1Node n = node(name);
    return l -> l.onNodeAdd(n);
  }

  private void register(ClusterListener listener) {
    synchronized (lock) {
      dispatcher.addLocked(listener, List.of());
    }
  }

  private void queue(String... names) {
    synchronized (lock) {
      for (String name : names) {
        dispatcher.notifyLocked(added(name));
      }
    }
  }

  /** A listener that records what it hears under {@code tag} and runs {@code then} after it. */
  private ClusterListener recorder(String tag, Consumer<String> then) {
    return new ClusterListener() {
      @Override
      public void onNodeAdd(V1Node node) {
        String name = node.getMetadata().getName();
        heard.add(tag + ":" + name);
        then.accept(name);
      }
    };
  }

  @Test
  void changesQueuedWhileDeliveringComeAfterTheOnesBefore() {
    register(
        recorder(
            "a",
            name -> {
              if (name.equals("n1")) {
                // a listener's own write: queued and dispatched re-entrantly, delivered later
                queue("n3");
                dispatcher.dispatch();
              }
            }));
    register(recorder("b", name -> {}));
    queue("n1", "n2");

    dispatcher.dispatch();

    assertThat(heard).containsExactly("a:n1", "b:n1", "a:n2", "b:n2", "a:n3", "b:n3");
  }

  @Test
  void aListenerThatThrowsIsSkippedForThatChangeOnly() {
    register(
        recorder(
            "a",
            name -> {
              if (name.equals("n1")) {
                throw new IllegalStateException("boom");
              }
            }));
    register(recorder("b", name -> {}));
    queue("n1", "n2");

    dispatcher.dispatch();

    assertThat(heard).containsExactly("a:n1", "b:n1", "a:n2", "b:n2");
  }

  @Test
  void afterAnErrorTheChangesNotYetDeliveredWaitForTheNextDispatch() {
    register(
        recorder(
            "a",
            name -> {
              if (name.equals("n1")) {
                throw new AssertionError("fatal");
              }
            }));
    queue("n1", "n2", "n3");

    assertThatThrownBy(dispatcher::dispatch).isInstanceOf(AssertionError.class);
    List<String> beforeNext = List.copyOf(heard);
    queue("n4");
    dispatcher.dispatch();

    assertThat(List.of(beforeNext, heard))
        .containsExactly(List.of("a:n1"), List.of("a:n1", "a:n2", "a:n3", "a:n4"));
  }
}
