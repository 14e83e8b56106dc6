package dev.sluice.mcp.conformance;

import dev.sluice.mcp.McpFeatures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The conformance suite's resources, prompts and completions (test-only). */
final class FixtureContent {

  private static final Pattern TEMPLATE = Pattern.compile("test://template/([^/]+)/data");

  private FixtureContent() {}

  static void register(McpFeatures features) {
    features.resources(new McpFeatures.Resources() {
      @Override
      public JsonArray list() {
        return new JsonArray()
            .add(res("test://static-text", "static-text", "Static Text Resource", "text/plain"))
            .add(res("test://static-binary", "static-binary", "Static Binary Resource", "image/png"))
            .add(res("test://watched-resource", "watched-resource", "Watched Resource", "text/plain"));
      }

      @Override
      public JsonArray templates() {
        return new JsonArray().add(new JsonObject().put("name", "template").put("title", "Resource Template")
            .put("uriTemplate", "test://template/{id}/data")
            .put("description", "A resource template with parameter substitution").put("mimeType", "application/json"));
      }

      @Override
      public Future<JsonArray> read(String uri) {
        JsonObject c = new JsonObject().put("uri", uri);
        Matcher m = TEMPLATE.matcher(uri);
        switch (uri) {
          case "test://static-text" -> c.put("mimeType", "text/plain")
              .put("text", "This is the content of the static text resource.");
          case "test://static-binary" -> c.put("mimeType", "image/png").put("blob", FixtureTools.PNG);
          case "test://watched-resource" -> c.put("mimeType", "text/plain").put("text", "Watched resource content");
          default -> {
            if (!m.matches()) {
              return Future.succeededFuture(null);
            }
            c.put("mimeType", "application/json").put("text", new JsonObject().put("id", m.group(1))
                .put("templateTest", true).put("data", "Data for ID: " + m.group(1)).encode());
          }
        }
        return Future.succeededFuture(new JsonArray().add(c));
      }

      @Override
      public boolean subscribable() {
        return true;
      }
    });
    features.prompts(new McpFeatures.Prompts() {
      @Override
      public JsonArray list() {
        return new JsonArray()
            .add(prompt("test_simple_prompt", "Simple Test Prompt", "A simple prompt without arguments", new JsonArray()))
            .add(prompt("test_prompt_with_arguments", "Prompt With Arguments", "A prompt with required arguments",
                new JsonArray().add(arg("arg1", "First test argument")).add(arg("arg2", "Second test argument"))))
            .add(prompt("test_prompt_with_embedded_resource", "Prompt With Embedded Resource",
                "A prompt that includes an embedded resource",
                new JsonArray().add(arg("resourceUri", "URI of the resource to embed"))))
            .add(prompt("test_prompt_with_image", "Prompt With Image", "A prompt that includes image content",
                new JsonArray()));
      }

      @Override
      public Future<JsonObject> get(String name, JsonObject a) {
        JsonArray messages = new JsonArray();
        switch (String.valueOf(name)) {
          case "test_simple_prompt" -> messages.add(user(text("This is a simple prompt for testing.")));
          case "test_prompt_with_arguments" -> messages.add(user(text("Prompt with arguments: arg1='"
              + a.getString("arg1") + "', arg2='" + a.getString("arg2") + "'")));
          case "test_prompt_with_embedded_resource" -> messages
              .add(user(FixtureTools.resource(a.getString("resourceUri", "test://example-resource"), "text/plain",
                  "Embedded resource content for testing.")))
              .add(user(text("Please process the embedded resource above.")));
          case "test_prompt_with_image" -> messages.add(user(FixtureTools.image()))
              .add(user(text("Please analyze the image above.")));
          default -> {
            return Future.succeededFuture(null);
          }
        }
        return Future.succeededFuture(new JsonObject().put("messages", messages));
      }
    });
    features.completions((ref, argument, context) -> Future.succeededFuture(new JsonObject().put("completion",
        new JsonObject().put("values", new JsonArray()).put("total", 0).put("hasMore", false))));
  }

  private static JsonObject res(String uri, String name, String title, String mime) {
    return new JsonObject().put("uri", uri).put("name", name).put("title", title).put("mimeType", mime)
        .put("description", title + " for conformance testing");
  }

  private static JsonObject prompt(String name, String title, String description, JsonArray args) {
    return new JsonObject().put("name", name).put("title", title).put("description", description).put("arguments", args);
  }

  private static JsonObject arg(String name, String description) {
    return new JsonObject().put("name", name).put("description", description).put("required", true);
  }

  private static JsonObject text(String t) {
    return new JsonObject().put("type", "text").put("text", t);
  }

  private static JsonObject user(JsonObject content) {
    return new JsonObject().put("role", "user").put("content", content);
  }
}
