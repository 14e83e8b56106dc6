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

  private static final ToolSpec SPEC = ToolSpec.resource("connection_list");

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
