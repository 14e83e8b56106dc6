package dev.sluice.testing;

import io.vertx.core.json.JsonObject;
import io.vertx.json.schema.Draft;
import io.vertx.json.schema.JsonSchema;
import io.vertx.json.schema.JsonSchemaOptions;
import io.vertx.json.schema.OutputFormat;
import io.vertx.json.schema.OutputUnit;
import io.vertx.json.schema.Validator;
import java.util.HashMap;
import java.util.Map;

/**
 * The outputSchemas a session was given in tools/list, compiled, to check each successful result
 * against (what the TypeScript and Python SDK clients do before handing a result to the agent).
 */
final class OutputSchemas {

  private final Map<String, Validator> byTool = new HashMap<>();
  private int lookups;

  void check(McpHttpClient client, String tool, JsonObject structured) throws Exception {
    if (!byTool.containsKey(tool)) {
      load(client);
    }
    Validator v = byTool.get(tool);
    if (v == null) {
      return; // a tool without an outputSchema
    }
    OutputUnit out = v.validate(structured);
    if (!Boolean.TRUE.equals(out.getValid())) {
      throw new AssertionError(tool + ": structuredContent does not match its outputSchema: " + out.toJson().encode()
          + "\nstructuredContent: " + structured.encode());
    }
  }

  private void load(McpHttpClient client) throws Exception {
    String cursor = null;
    do {
      JsonObject params = cursor == null ? new JsonObject() : new JsonObject().put("cursor", cursor);
      // a string id of its own: tests choose numeric ids for the requests they follow
      JsonObject response = client.call("tools/list", params, "output-schemas-" + (++lookups));
      JsonObject result = response.getJsonObject("result");
      if (result == null) {
        return;
      }
      result.getJsonArray("tools").forEach(o -> {
        JsonObject t = (JsonObject) o;
        JsonObject schema = t.getJsonObject("outputSchema");
        byTool.put(t.getString("name"), schema == null ? null : Validator.create(JsonSchema.of(schema.copy()),
            new JsonSchemaOptions().setDraft(Draft.DRAFT202012).setBaseUri("https://sluice.dev/test/")
                .setOutputFormat(OutputFormat.Basic)));
      });
      cursor = result.getString("nextCursor");
    } while (cursor != null);
  }
}
