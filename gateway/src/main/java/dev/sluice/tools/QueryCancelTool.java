package dev.sluice.tools;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** query_cancel: stops a running query started by another call of the same session. */
public final class QueryCancelTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("query_cancel");

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    String queryId = args.getString("queryId");
    if (!ctx.cancelSessionQuery(queryId)) {
      return Future.failedFuture(new SqlError(ErrorType.NOT_FOUND,
          "no running query with id " + queryId + " in this session (it may have finished already)"));
    }
    return Future.succeededFuture(ToolResult.of(
        new JsonObject().put("queryId", queryId).put("cancelled", true),
        "cancellation sent for query " + queryId));
  }
}
