package io.kubesched.plugins.helper;

import io.kubesched.framework.PodInfo;
import io.kubesched.framework.Resource;
import io.kubesched.framework.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Signature fragments ({@link io.kubesched.framework.SignPlugin}) shared by several plugins, built
 * with one string builder: opportunistic batching signs every pod with every plugin, so these run
 * once per plugin per pod. Two pods get the same fragment exactly when the signed values are equal;
 * the fields are separated by characters that cannot occur in them.
 */
public final class Signatures {
  private static final char FIELD = '\u0000';
  private static final char ITEM = '\u0001';

  private Signatures() {}

  /** Returns the fragment of the pod's tolerations, in order. */
  public static String tolerations(List<Toleration> tolerations) {
    StringBuilder sb = new StringBuilder(tolerations.size() * 48);
    for (Toleration t : tolerations) {
      sb.append(t.key())
          .append(FIELD)
          .append(t.operator())
          .append(FIELD)
          .append(t.value())
          .append(FIELD)
          .append(t.effect())
          .append(FIELD)
          .append(t.tolerationSeconds())
          .append(ITEM);
    }
    return sb.toString();
  }

  /**
   * What {@link #requests(PodInfo)} signs: a pod's requests and its requests with the non-zero
   * defaults (a {@link LastFragment} key).
   */
  public record Requests(Resource requests, long nonZeroMilliCpu, long nonZeroMemory) {
    /** Returns the values of {@code pod}. */
    public static Requests of(PodInfo pod) {
      return new Requests(pod.requests(), pod.nonZeroMilliCpu(), pod.nonZeroMemory());
    }

    // written out: a record's generated equals goes through method handles (see LastFragment)
    @Override
    public boolean equals(Object o) {
      return o instanceof Requests r
          && nonZeroMilliCpu == r.nonZeroMilliCpu
          && nonZeroMemory == r.nonZeroMemory
          && requests.equals(r.requests);
    }

    @Override
    public int hashCode() {
      return (31 * requests.hashCode() + Long.hashCode(nonZeroMilliCpu)) * 31
          + Long.hashCode(nonZeroMemory);
    }
  }

  /** Returns the fragment of the pod's requests, with and without the non-zero defaults. */
  public static String requests(PodInfo pod) {
    return requests(Requests.of(pod));
  }

  /** Returns the fragment of {@code values}: {@link #requests(PodInfo)} of their pod. */
  public static String requests(Requests values) {
    Resource r = values.requests();
    StringBuilder sb = new StringBuilder(64);
    sb.append(r.milliCpu())
        .append(FIELD)
        .append(r.memory())
        .append(FIELD)
        .append(r.ephemeralStorage())
        .append(FIELD)
        .append(r.allowedPodNumber())
        .append(FIELD)
        .append(values.nonZeroMilliCpu())
        .append(FIELD)
        .append(values.nonZeroMemory());
    for (Map.Entry<String, Long> e : r.scalarResources().entrySet()) {
      sb.append(ITEM).append(e.getKey()).append(FIELD).append(e.getValue());
    }
    return sb.toString();
  }
}
