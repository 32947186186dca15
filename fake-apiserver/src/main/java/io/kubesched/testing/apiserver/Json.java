package io.kubesched.testing.apiserver;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

/** Small helpers over Gson's tree model. */
final class Json {
  /** The serializer of responses and watch lines (immutable and thread-safe). */
  static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private Json() {}

  /** Returns the object under {@code field}, adding an empty one when it is missing. */
  static JsonObject object(JsonObject parent, String field) {
    JsonElement e = parent.get(field);
    if (e == null || !e.isJsonObject()) {
      JsonObject o = new JsonObject();
      parent.add(field, o);
      return o;
    }
    return e.getAsJsonObject();
  }

  /** Returns the primitive under {@code field} as a string, or null. */
  static String str(JsonObject o, String field) {
    if (o == null) {
      return null;
    }
    JsonElement e = o.get(field);
    return e == null || e.isJsonNull() || !e.isJsonPrimitive() ? null : e.getAsString();
  }

  /** Returns a {@code v1.Status} of a failure. */
  static JsonObject failure(int code, String reason, String message) {
    JsonObject s = new JsonObject();
    s.addProperty("kind", "Status");
    s.addProperty("apiVersion", "v1");
    s.add("metadata", new JsonObject());
    s.addProperty("status", "Failure");
    s.addProperty("message", message);
    s.addProperty("reason", reason);
    s.addProperty("code", code);
    return s;
  }
}
