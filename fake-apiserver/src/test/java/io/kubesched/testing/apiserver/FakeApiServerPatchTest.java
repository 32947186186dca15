package io.kubesched.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

final class FakeApiServerPatchTest {
  static Stream<Arguments> rfc7386AppendixA() {
    return Stream.of(
        Arguments.argumentSet(
            "a value is replaced", "{\"a\":\"b\"}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"),
        Arguments.argumentSet(
            "a member is added", "{\"a\":\"b\"}", "{\"b\":\"c\"}", "{\"a\":\"b\",\"b\":\"c\"}"),
        Arguments.argumentSet("null removes a member", "{\"a\":\"b\"}", "{\"a\":null}", "{}"),
        Arguments.argumentSet(
            "null removes only that member",
            "{\"a\":\"b\",\"b\":\"c\"}",
            "{\"a\":null}",
            "{\"b\":\"c\"}"),
        Arguments.argumentSet(
            "a list is replaced by a value", "{\"a\":[\"b\"]}", "{\"a\":\"c\"}", "{\"a\":\"c\"}"),
        Arguments.argumentSet(
            "a value is replaced by a list", "{\"a\":\"c\"}", "{\"a\":[\"b\"]}", "{\"a\":[\"b\"]}"),
        Arguments.argumentSet(
            "objects merge recursively",
            "{\"a\":{\"b\":\"c\"}}",
            "{\"a\":{\"b\":\"d\",\"c\":null}}",
            "{\"a\":{\"b\":\"d\"}}"),
        Arguments.argumentSet(
            "lists are replaced, not merged",
            "{\"a\":[{\"b\":\"c\"}]}",
            "{\"a\":[1]}",
            "{\"a\":[1]}"),
        Arguments.argumentSet(
            "a list replaces a list", "[\"a\",\"b\"]", "[\"c\",\"d\"]", "[\"c\",\"d\"]"),
        Arguments.argumentSet("a list replaces an object", "{\"a\":\"b\"}", "[\"c\"]", "[\"c\"]"),
        Arguments.argumentSet("null replaces the document", "{\"a\":\"foo\"}", "null", "null"),
        Arguments.argumentSet(
            "a string replaces the document", "{\"a\":\"foo\"}", "\"bar\"", "\"bar\""),
        Arguments.argumentSet(
            "existing nulls are kept", "{\"e\":null}", "{\"a\":1}", "{\"e\":null,\"a\":1}"),
        Arguments.argumentSet(
            "an object replaces a list, without its nulls",
            "[1,2]",
            "{\"a\":\"b\",\"c\":null}",
            "{\"a\":\"b\"}"),
        Arguments.argumentSet(
            "nested objects are created without their nulls",
            "{}",
            "{\"a\":{\"bb\":{\"ccc\":null}}}",
            "{\"a\":{\"bb\":{}}}"));
  }

  @ParameterizedTest
  @MethodSource("rfc7386AppendixA")
  void jsonMergePatchFollowsRfc7386(String target, String patch, String want) {
    assertThat(Patches.mergePatch(json(target), json(patch))).isEqualTo(json(want));
  }

  static Stream<Arguments> strategicMergePatches() {
    return Stream.of(
        Arguments.argumentSet(
            "conditions merge by type: one replaced, one added, others kept",
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"True\"},{\"type\":\"B\",\"status\":\"False\"}]}",
            "{\"conditions\":[{\"type\":\"B\",\"status\":\"True\"},{\"type\":\"C\",\"status\":\"True\"}]}",
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"True\"},{\"type\":\"B\",\"status\":\"True\"},"
                + "{\"type\":\"C\",\"status\":\"True\"}]}"),
        Arguments.argumentSet(
            "a merged element keeps the fields the patch does not name",
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"False\",\"reason\":\"R\"}]}",
            "{\"conditions\":[{\"type\":\"A\",\"message\":\"m\"}]}",
            "{\"conditions\":[{\"type\":\"A\",\"status\":\"False\",\"reason\":\"R\",\"message\":\"m\"}]}"),
        Arguments.argumentSet(
            "$patch: delete removes the element with that key",
            "{\"conditions\":[{\"type\":\"A\"},{\"type\":\"B\"}]}",
            "{\"conditions\":[{\"type\":\"A\",\"$patch\":\"delete\"}]}",
            "{\"conditions\":[{\"type\":\"B\"}]}"),
        Arguments.argumentSet(
            "lists without a merge key are replaced",
            "{\"tolerations\":[{\"key\":\"a\"}]}",
            "{\"tolerations\":[{\"key\":\"b\"}]}",
            "{\"tolerations\":[{\"key\":\"b\"}]}"),
        Arguments.argumentSet(
            "directives such as $setElementOrder are not stored",
            "{\"x\":0}",
            "{\"$setElementOrder/conditions\":[{\"type\":\"A\"}],\"x\":1}",
            "{\"x\":1}"),
        Arguments.argumentSet(
            "null removes a member", "{\"a\":1,\"b\":2}", "{\"a\":null}", "{\"b\":2}"));
  }

  @ParameterizedTest
  @MethodSource("strategicMergePatches")
  void strategicMergePatchMergesKeyedLists(String target, String patch, String want) {
    assertThat(Patches.strategicMerge(json(target), json(patch), null)).isEqualTo(json(want));
  }

  private static JsonElement json(String s) {
    return JsonParser.parseString(s);
  }
}
