package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.SqlRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

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
    SqlRequest request = SqlRequest.query(c.id(), args.getString("sql"), null, 1)
        .withExplain(args.getBoolean("analyze", false));
    return directory.gate().run(c, request, List.of(), ctx, p -> {
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
    });
  }
}
