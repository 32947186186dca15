package io.kubesched.testing.apiserver;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The label and field selectors of a list or watch: label requirements {@code k=v}, {@code k==v},
 * {@code k!=v}, {@code k in (a,b)}, {@code k notin (a,b)}, {@code k}, {@code !k}; field
 * requirements {@code path=v}, {@code path!=v} on any dotted path (a missing field is {@code ""}).
 */
record Selector(List<Selector.Requirement> labels, List<Selector.Requirement> fields) {
  /** One requirement of a selector. */
  record Requirement(String key, String op, List<String> values) {
    boolean matches(boolean present, String value) {
      return switch (op) {
        case "=" -> present && values.get(0).equals(value);
        case "!=" -> !present || !values.get(0).equals(value);
        case "in" -> present && values.contains(value);
        case "notin" -> !present || !values.contains(value);
        case "exists" -> present;
        default -> !present;
      };
    }
  }

  /** Parses the {@code labelSelector} and {@code fieldSelector} parameters (either may be null). */
  static Selector parse(String labelSelector, String fieldSelector) throws ApiError {
    return new Selector(requirements(labelSelector, true), requirements(fieldSelector, false));
  }

  /** Whether object {@code o} satisfies every requirement. */
  boolean matches(JsonObject o) {
    JsonObject meta = o.getAsJsonObject("metadata");
    JsonElement labels = meta == null ? null : meta.get("labels");
    Map<String, String> l = new HashMap<>();
    if (labels != null && labels.isJsonObject()) {
      for (Map.Entry<String, JsonElement> e : labels.getAsJsonObject().entrySet()) {
        l.put(e.getKey(), e.getValue().isJsonNull() ? "" : e.getValue().getAsString());
      }
    }
    for (Requirement r : labels()) {
      if (!r.matches(l.containsKey(r.key()), l.get(r.key()))) {
        return false;
      }
    }
    for (Requirement r : fields()) {
      String v = field(o, r.key());
      if (!r.matches(true, v == null ? "" : v)) {
        return false;
      }
    }
    return true;
  }

  private static String field(JsonObject o, String path) {
    JsonElement cur = o;
    for (String p : path.split("\\.")) {
      if (cur == null || !cur.isJsonObject()) {
        return null;
      }
      cur = cur.getAsJsonObject().get(p);
    }
    return cur == null || cur.isJsonNull() || !cur.isJsonPrimitive() ? null : cur.getAsString();
  }

  private static List<Requirement> requirements(String s, boolean labels) throws ApiError {
    List<Requirement> out = new ArrayList<>();
    if (s == null || s.isBlank()) {
      return out;
    }
    List<String> parts = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        parts.add(s.substring(start, i));
        start = i + 1;
      }
    }
    parts.add(s.substring(start));
    for (String raw : parts) {
      String p = raw.trim();
      int ne = p.indexOf("!=");
      int eq = p.indexOf('=');
      if (ne >= 0) {
        out.add(
            new Requirement(p.substring(0, ne).trim(), "!=", List.of(p.substring(ne + 2).trim())));
      } else if (eq >= 0) {
        int skip = p.startsWith("==", eq) ? 2 : 1;
        out.add(
            new Requirement(
                p.substring(0, eq).trim(), "=", List.of(p.substring(eq + skip).trim())));
      } else if (labels && p.contains("(")) {
        String[] head = p.substring(0, p.indexOf('(')).trim().split("\\s+");
        if (head.length != 2 || !(head[1].equals("in") || head[1].equals("notin"))) {
          throw new ApiError(400, "BadRequest", "unable to parse requirement: " + p);
        }
        List<String> values = new ArrayList<>();
        for (String v : p.substring(p.indexOf('(') + 1, p.lastIndexOf(')')).split(",")) {
          if (!v.isBlank()) {
            values.add(v.trim());
          }
        }
        out.add(new Requirement(head[0], head[1], values));
      } else if (labels && p.startsWith("!")) {
        out.add(new Requirement(p.substring(1).trim(), "!exists", List.of()));
      } else if (labels && !p.isEmpty()) {
        out.add(new Requirement(p, "exists", List.of()));
      } else {
        throw new ApiError(400, "BadRequest", "invalid selector: '" + s + "'");
      }
    }
    return out;
  }
}
