package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** connection_list: what an agent may query, with live status, deadline and row limits. */
public final class ConnectionListTool implements Tool {

  private static final ToolSpec SPEC = new ToolSpec(
      "connection_list",
      "List connections",
      "List the databases this gateway can query. Returns each connection's id (pass it as "
          + "connectionId to the other tools), driver, status, server version, whether it is "
          + "read-only, its query deadline and its row limits. Call this first when you do not "
          + "know which connectionId to use.",
      new JsonObject().put("type", "object").put("properties", new JsonObject())
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject().put("connections", new JsonObject()
              .put("type", "array")
              .put("items", Schemas.object()
                  .put("properties", new JsonObject()
                      .put("id", Schemas.string())
                      .put("driver", Schemas.string())
                      .put("description", Schemas.nullable("string"))
                      .put("status", Schemas.string())
                      .put("serverVersion", Schemas.nullable("string"))
                      .put("flavour", Schemas.nullable("string"))
                      .put("readOnly", new JsonObject().put("type", "boolean"))
                      .put("queryTimeoutMs", new JsonObject().put("type", "integer"))
                      .put("maxRows", Schemas.object())
                      .put("pool", Schemas.object()))
                  .put("required", new JsonArray().add("id").add("driver").add("status")))))
          .put("required", new JsonArray().add("connections")),
      ToolSpec.readOnlyAnnotations("List connections", true));

  private final ConnectionDirectory directory;

  public ConnectionListTool(ConnectionDirectory directory) {
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    List<ConnectionConfig> all = directory.all(ctx.principal());
    return directory.statuses(all).map(statuses -> {
      JsonArray out = new JsonArray();
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < all.size(); i++) {
        ConnectionConfig c = all.get(i);
        JsonObject st = statuses.get(i);
        JsonObject entry = new JsonObject()
            .put("id", c.id())
            .put("driver", c.driver().wireName())
            .put("description", c.description())
            .put("status", st.getString("status", "down"))
            .put("serverVersion", st.getString("serverVersion"))
            .put("flavour", st.getString("flavour"))
            .put("readOnly", st.getBoolean("readOnly", true))
            .put("queryTimeoutMs", c.queryTimeoutMs())
            .put("maxRows", new JsonObject().put("default", c.maxRowsDefault())
                .put("ceiling", c.maxRowsCeiling()))
            .put("pool", st.getJsonObject("pool", new JsonObject()));
        if (st.getString("error") != null) {
          entry.put("error", st.getString("error"));
        }
        out.add(entry);
        text.append(c.id()).append(" (").append(c.driver().wireName()).append(", ")
            .append(entry.getString("status"));
        if (entry.getString("serverVersion") != null) {
          text.append(", ").append(entry.getString("serverVersion"));
        }
        text.append(", deadline ").append(c.queryTimeoutMs() / 1000).append("s, maxRows ")
            .append(c.maxRowsDefault()).append('/').append(c.maxRowsCeiling()).append(")\n");
      }
      return ToolResult.of(new JsonObject().put("connections", out), text.toString().trim());
    });
  }
}
