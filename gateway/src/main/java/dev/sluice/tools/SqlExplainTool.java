package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** sql_explain: the engine's plan for a read-only statement, optionally executed (analyze). */
public final class SqlExplainTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sql_explain");

  private final ConnectionDirectory directory;

  public SqlExplainTool(ConnectionDirectory directory) {
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    ctx.progress(0, null, "validating");
    JsonObject request = new JsonObject().put("sql", args.getString("sql")).put("mode", "explain")
        .put("analyze", args.getBoolean("analyze", false)).put("maxRows", 1);
    return directory.policy().checkStatement(ctx.principal(), c, args.getString("sql"))
        .compose(v -> ExecutorClient.execute(c, request, ctx, directory.limits(), p -> {
      if ("executing".equals(p.getString("stage"))) {
        ctx.progress(1, null, "executing");
      }
    }).map(r -> {
      r.put("connectionId", c.id());
      StringBuilder text = new StringBuilder();
      r.getJsonArray("plan", new JsonArray()).forEach(l -> text.append(l).append('\n'));
      if (r.getValue("estimatedRows") != null) {
        text.append("(estimated rows: ").append(r.getValue("estimatedRows")).append(")");
      }
      return ToolResult.of(r, text.toString().trim());
    }));
  }
}
