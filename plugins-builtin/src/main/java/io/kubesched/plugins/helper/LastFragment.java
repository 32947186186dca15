package io.kubesched.plugins.helper;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A plugin's last signature fragment ({@link io.kubesched.framework.SignPlugin}) and the value it
 * was made from: opportunistic batching signs every pod, and pods in a row are mostly alike, so a
 * fragment whose value equals the last one's is handed out again instead of built again.
 *
 * <p>The value must be immutable, or not changed while it is the last one, and its {@code equals}
 * must hold exactly when the fragments built from two values are equal. A record used as the value
 * should write its {@code equals} out: the generated one goes through method handles, which cost
 * more than building the fragment until the JIT has compiled the caller. Safe for concurrent use:
 * the pair is published whole.
 *
 * @param <K> the type of the value a fragment is made from
 */
public final class LastFragment<K> {
  private final Function<? super K, String> make;
  private volatile Entry<K> last;

  private record Entry<K>(K value, Optional<String> fragment) {}

  /** Creates the memo of {@code make}, which builds a fragment from a value. */
  public LastFragment(Function<? super K, String> make) {
    this.make = Objects.requireNonNull(make, "make must not be null");
  }

  /** Returns the fragment of {@code value}: the last one when the values are equal. */
  public Optional<String> of(K value) {
    Entry<K> l = last;
    if (l != null && Objects.equals(l.value(), value)) {
      return l.fragment();
    }
    Optional<String> fragment = Optional.of(make.apply(value));
    last = new Entry<>(value, fragment);
    return fragment;
  }

  /**
   * Two values a fragment is made from, as one key, with {@code equals} and {@code hashCode}
   * written out (see the class's note on records).
   *
   * @param first the first value, may be null
   * @param second the second value, may be null
   * @param <A> the first value's type
   * @param <B> the second value's type
   */
  public record Pair<A, B>(A first, B second) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Pair<?, ?> p
          && Objects.equals(first, p.first)
          && Objects.equals(second, p.second);
    }

    @Override
    public int hashCode() {
      return 31 * Objects.hashCode(first) + Objects.hashCode(second);
    }
  }
}
