package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.SqlRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * sql_execution: one read-only statement, bounded by the connection's deadline and row cap, with
 * progress (validating → executing → fetched N rows) and cancellation.
 */
public final class SqlExecutionTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sql_execution");

  private final ConnectionDirectory directory;

  public SqlExecutionTool(ConnectionDirectory directory) {
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    int maxRows = Math.min(args.getInteger("maxRows", c.maxRowsDefault()), c.maxRowsCeiling());
    ctx.progress(0, null, "validating");
    SqlRequest request = SqlRequest.query(c.id(), args.getString("sql"), null, maxRows);
    return directory.gate().run(c, request, List.of(), ctx, p -> progress(ctx, p))
        .map(r -> {
          r.put("connectionId", c.id());
          ctx.progress(2 + r.getInteger("rowCount", 0), null,
              "fetched " + r.getInteger("rowCount", 0) + " rows");
          return ToolResult.of(r, ResultText.render(r));
        });
  }

  private static void progress(ToolContext ctx, JsonObject p) {
    switch (p.getString("stage", "")) {
      case "executing" -> ctx.progress(1, null, "executing");
      case "fetching" -> {
        int rows = p.getInteger("rows", 0);
        ctx.progress(2 + rows, null, "fetched " + rows + " rows");
      }
      default -> { }
    }
  }
}
