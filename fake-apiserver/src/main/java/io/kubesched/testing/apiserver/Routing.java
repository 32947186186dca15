package io.kubesched.testing.apiserver;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Maps request paths and query strings of the Kubernetes API to {@link Target}s and parameters. */
final class Routing {
  private Routing() {}

  /** A parsed request path: the resource, and the namespace, name and subresource when given. */
  record Target(Resource res, String namespace, String name, String sub) {}

  /**
   * Parses {@code /api/v1/...} or {@code /apis/GROUP/VERSION/...}; only the {@code status} and
   * {@code binding} subresources are served.
   */
  static Target target(String rawPath) throws ApiError {
    return target(rawPath, List.of());
  }

  /** Like {@link #target(String)}, also serving the {@code custom} resources. */
  static Target target(String rawPath, List<Resource> custom) throws ApiError {
    List<String> s = new ArrayList<>();
    for (String p : rawPath.split("/")) {
      if (!p.isEmpty()) {
        s.add(URLDecoder.decode(p, StandardCharsets.UTF_8));
      }
    }
    String group;
    String version;
    int from;
    if (s.size() >= 3 && s.get(0).equals("api")) {
      group = "";
      version = s.get(1);
      from = 2;
    } else if (s.size() >= 4 && s.get(0).equals("apis")) {
      group = s.get(1);
      version = s.get(2);
      from = 3;
    } else {
      throw ApiError.notServed();
    }
    List<String> rest = s.subList(from, s.size());
    String namespace = null;
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      Resource r = Resource.find(group, version, rest.get(2), custom);
      if (r != null && r.namespaced()) {
        namespace = rest.get(1);
        rest = rest.subList(2, rest.size());
      }
    }
    Resource r = Resource.find(group, version, rest.get(0), custom);
    if (r == null || rest.size() > 3) {
      throw ApiError.notServed();
    }
    String name = rest.size() > 1 ? rest.get(1) : null;
    String sub = rest.size() > 2 ? rest.get(2) : null;
    if (sub != null && !sub.equals("status") && !sub.equals("binding")) {
      throw ApiError.notServed();
    }
    if (r.namespaced() && namespace == null && name != null) {
      throw ApiError.notServed();
    }
    return new Target(r, namespace, name, sub);
  }

  /** Parses a raw query string; a parameter without {@code =} has the empty value. */
  static Map<String, String> query(String raw) {
    Map<String, String> q = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return q;
    }
    for (String kv : raw.split("&")) {
      int i = kv.indexOf('=');
      String k = URLDecoder.decode(i < 0 ? kv : kv.substring(0, i), StandardCharsets.UTF_8);
      String v = i < 0 ? "" : URLDecoder.decode(kv.substring(i + 1), StandardCharsets.UTF_8);
      q.put(k, v);
    }
    return q;
  }

  /** Whether a boolean query parameter is set ({@code true} or {@code 1}). */
  static boolean isTrue(String v) {
    return "true".equals(v) || "1".equals(v);
  }
}
