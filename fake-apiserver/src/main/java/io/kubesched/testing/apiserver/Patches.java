package io.kubesched.testing.apiserver;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.Map;

/** The patch algorithms of the fake API server: JSON merge patch and strategic merge patch. */
final class Patches {
  /** List fields merged by key in a strategic merge patch, by field name. */
  static final Map<String, String> MERGE_KEYS =
      Map.of(
          "conditions", "type",
          "containers", "name",
          "initContainers", "name",
          "ephemeralContainers", "name",
          "volumes", "name",
          "env", "name",
          "ownerReferences", "uid");

  private Patches() {}

  /** Applies an RFC 7386 JSON merge patch to {@code target} (which it may modify). */
  static JsonElement mergePatch(JsonElement target, JsonElement patch) {
    if (!patch.isJsonObject()) {
      return patch.deepCopy();
    }
    JsonObject result =
        target != null && target.isJsonObject() ? target.getAsJsonObject() : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }

  /**
   * Applies a strategic merge patch to {@code target} (which it may modify): like a JSON merge
   * patch, but lists named in {@link #MERGE_KEYS} are merged element by element on their key (an
   * element with {@code "$patch": "delete"} removes its match); other directives ({@code $...}
   * keys) are ignored. {@code field} is the name {@code target} has in its parent, or null.
   */
  static JsonElement strategicMerge(JsonElement target, JsonElement patch, String field) {
    if (patch.isJsonArray()) {
      String mergeKey = field == null ? null : MERGE_KEYS.get(field);
      if (mergeKey == null || target == null || !target.isJsonArray()) {
        return patch.deepCopy();
      }
      JsonArray result = target.getAsJsonArray();
      for (JsonElement p : patch.getAsJsonArray()) {
        if (!p.isJsonObject() || !p.getAsJsonObject().has(mergeKey)) {
          result.add(p.deepCopy());
          continue;
        }
        JsonElement k = p.getAsJsonObject().get(mergeKey);
        boolean delete = "delete".equals(Json.str(p.getAsJsonObject(), "$patch"));
        int found = -1;
        for (int i = 0; i < result.size(); i++) {
          JsonElement c = result.get(i);
          if (c.isJsonObject() && k.equals(c.getAsJsonObject().get(mergeKey))) {
            found = i;
            break;
          }
        }
        if (delete) {
          if (found >= 0) {
            result.remove(found);
          }
        } else if (found >= 0) {
          result.set(found, strategicMerge(result.get(found), p, null));
        } else {
          result.add(strategicMerge(new JsonObject(), p, null));
        }
      }
      return result;
    }
    if (!patch.isJsonObject()) {
      return patch.deepCopy();
    }
    JsonObject result =
        target != null && target.isJsonObject() ? target.getAsJsonObject() : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getKey().startsWith("$")) {
        continue;
      }
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), strategicMerge(result.get(e.getKey()), e.getValue(), e.getKey()));
      }
    }
    return result;
  }
}
