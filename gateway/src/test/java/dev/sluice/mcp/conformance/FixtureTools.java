package dev.sluice.mcp.conformance;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.function.BiFunction;

/**
 * The tools the MCP conformance suite calls (test-only; never in the product jar). Names, schemas
 * and outputs follow the suite's expectations recorded in loadtest/mcp-clients/SCENARIOS.md.
 */
final class FixtureTools {

  static final String PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
  static final String WAV = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

  private FixtureTools() {}

  static void register(ToolRegistry tools) {
    tools.register(tool("test_simple_text", "Tests simple text content response", empty(),
        (a, c) -> done(text("This is a simple text response for testing."))));
    tools.register(tool("test_image_content", "Tests image content response", empty(),
        (a, c) -> done(new JsonArray().add(image()))));
    tools.register(tool("test_audio_content", "Tests audio content response", empty(),
        (a, c) -> done(new JsonArray().add(new JsonObject().put("type", "audio").put("data", WAV)
            .put("mimeType", "audio/wav")))));
    tools.register(tool("test_embedded_resource", "Tests embedded resource content response", empty(),
        (a, c) -> done(new JsonArray().add(resource("test://embedded-resource", "text/plain",
            "This is an embedded resource content.")))));
    tools.register(tool("test_multiple_content_types", "Tests response with multiple content types", empty(),
        (a, c) -> done(text("Multiple content types test:").add(image())
            .add(resource("test://mixed-content-resource", "application/json", "{\"test\":\"data\",\"value\":123}")))));
    tools.register(tool("test_tool_with_logging", "Tests tool that emits log messages during execution", empty(),
        (a, c) -> steps(c, 3, 50, i -> c.log("info", "conformance",
            new String[] {"Tool execution started", "Tool processing data", "Tool execution completed"}[i]))
            .map(v -> result(text("Tool with logging executed successfully")))));
    tools.register(tool("test_tool_with_progress", "Tests tool that reports progress notifications", empty(),
        (a, c) -> steps(c, 3, 50, i -> c.progress(i * 50, 100.0, "Completed step " + (i * 50) + " of 100"))
            .map(v -> result(text("progress done")))));
    tools.register(tool("test_error_handling", "Tests error response handling", empty(),
        (a, c) -> Future.failedFuture(new SqlError(ErrorType.INTERNAL_ERROR,
            "This tool intentionally returns an error for testing"))));
    tools.register(tool("test_reconnection", "Tests SSE stream disconnection and client reconnection (SEP-1699)",
        empty(), (a, c) -> {
          c.disconnectStream();
          Promise<ToolResult> p = Promise.promise();
          c.vertx().setTimer(100, t -> p.complete(result(text("Reconnection test completed successfully. "
              + "If you received this, the client properly reconnected after stream closure."))));
          return p.future();
        }));
    tools.register(tool("test_sampling", "Tests server-initiated sampling (LLM completion request)",
        props(new JsonObject().put("prompt", str("The prompt to send to the LLM")), "prompt"),
        (a, c) -> c.requestClient("sampling/createMessage", new JsonObject()
                .put("messages", new JsonArray().add(new JsonObject().put("role", "user")
                    .put("content", new JsonObject().put("type", "text").put("text", a.getString("prompt")))))
                .put("maxTokens", 100), 30_000)
            .map(r -> result(text("LLM response: " + r.getJsonObject("content", new JsonObject()).getString("text"))))));
    tools.register(tool("test_elicitation", "Tests server-initiated elicitation (user input request)",
        props(new JsonObject().put("message", str("The message to show the user")), "message"),
        (a, c) -> elicit(c, a.getString("message"), new JsonObject()
            .put("username", str("User's response")).put("email", str("User's email address")),
            new JsonArray().add("username").add("email"), "User response")));
    tools.register(tool("test_elicitation_sep1034_defaults", "Tests elicitation with default values (SEP-1034)",
        empty(), (a, c) -> elicit(c, "Please review and update the form fields with defaults", new JsonObject()
            .put("name", str("User name").put("default", "John Doe"))
            .put("age", new JsonObject().put("type", "integer").put("description", "User age").put("default", 30))
            .put("score", new JsonObject().put("type", "number").put("description", "User score").put("default", 95.5))
            .put("status", str("User status").put("enum", new JsonArray().add("active").add("inactive").add("pending"))
                .put("default", "active"))
            .put("verified", new JsonObject().put("type", "boolean").put("description", "Verification status")
                .put("default", true)), new JsonArray(), "Elicitation completed")));
    tools.register(tool("test_elicitation_sep1330_enums", "Tests elicitation with enum schemas (SEP-1330)",
        empty(), (a, c) -> elicit(c, "Please select options from the enum fields", new JsonObject()
            .put("untitledSingle", str("Select one option").put("enum", strings("option1", "option2", "option3")))
            .put("titledSingle", str("Select one option with titles").put("oneOf", titled("value", "Option")))
            .put("legacyEnum", str("Select one option (legacy)").put("enum", strings("opt1", "opt2", "opt3"))
                .put("enumNames", strings("Option One", "Option Two", "Option Three")))
            .put("untitledMulti", new JsonObject().put("type", "array").put("description", "Select multiple options")
                .put("minItems", 1).put("maxItems", 3).put("items", new JsonObject().put("type", "string")
                    .put("enum", strings("option1", "option2", "option3"))))
            .put("titledMulti", new JsonObject().put("type", "array")
                .put("description", "Select multiple options with titles").put("minItems", 1).put("maxItems", 3)
                .put("items", new JsonObject().put("anyOf", titled("value", "Choice")))),
            new JsonArray(), "Elicitation completed")));
    tools.register(tool("json_schema_2020_12_tool",
        "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
        new JsonObject().put("$schema", "https://json-schema.org/draft/2020-12/schema").put("type", "object")
            .put("$defs", new JsonObject().put("address", new JsonObject().put("type", "object")
                .put("properties", new JsonObject().put("street", str(null)).put("city", str(null)))))
            .put("properties", new JsonObject().put("name", str(null))
                .put("address", new JsonObject().put("$ref", "#/$defs/address")))
            .put("additionalProperties", false),
        (a, c) -> done(text("ok"))));
  }

  private static Future<ToolResult> elicit(ToolContext c, String message, JsonObject properties,
      JsonArray required, String prefix) {
    JsonObject schema = new JsonObject().put("type", "object").put("properties", properties).put("required", required);
    return c.requestClient("elicitation/create", new JsonObject().put("message", message)
            .put("requestedSchema", schema), 30_000)
        .map(r -> result(text(prefix + ": action=" + r.getString("action") + ", content="
            + r.getJsonObject("content", new JsonObject()).encode())));
  }

  private static Future<Void> steps(ToolContext c, int n, long intervalMs, java.util.function.IntConsumer step) {
    Promise<Void> p = Promise.promise();
    step.accept(0);
    if (n == 1) {
      return Future.succeededFuture();
    }
    int[] i = {1};
    c.vertx().setPeriodic(intervalMs, t -> {
      step.accept(i[0]++);
      if (i[0] >= n) {
        c.vertx().cancelTimer(t);
        p.complete();
      }
    });
    return p.future();
  }

  private static Tool tool(String name, String description, JsonObject schema,
      BiFunction<JsonObject, ToolContext, Future<ToolResult>> body) {
    ToolSpec spec = new ToolSpec(name, null, description, schema, null, null);
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return spec;
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        return body.apply(args, ctx);
      }

      @Override
      public boolean talksToClient() {
        return true; // the suite's tools log, ask the client and close their stream (SEP-1699)
      }
    };
  }

  static JsonObject empty() {
    return new JsonObject().put("type", "object").put("properties", new JsonObject());
  }

  private static JsonObject props(JsonObject properties, String required) {
    return empty().put("properties", properties).put("required", new JsonArray().add(required));
  }

  private static JsonObject str(String description) {
    JsonObject s = new JsonObject().put("type", "string");
    return description == null ? s : s.put("description", description);
  }

  private static JsonArray strings(String... values) {
    JsonArray a = new JsonArray();
    for (String v : values) {
      a.add(v);
    }
    return a;
  }

  private static JsonArray titled(String prefix, String noun) {
    String[] ordinals = {"First", "Second", "Third"};
    JsonArray a = new JsonArray();
    for (int i = 0; i < 3; i++) {
      a.add(new JsonObject().put("const", prefix + (i + 1)).put("title", ordinals[i] + " " + noun));
    }
    return a;
  }

  static JsonArray text(String t) {
    return new JsonArray().add(new JsonObject().put("type", "text").put("text", t));
  }

  static JsonObject image() {
    return new JsonObject().put("type", "image").put("data", PNG).put("mimeType", "image/png");
  }

  static JsonObject resource(String uri, String mime, String text) {
    return new JsonObject().put("type", "resource").put("resource",
        new JsonObject().put("uri", uri).put("mimeType", mime).put("text", text));
  }

  private static ToolResult result(JsonArray content) {
    return new ToolResult(null, null, content);
  }

  private static Future<ToolResult> done(JsonArray content) {
    return Future.succeededFuture(result(content));
  }
}
