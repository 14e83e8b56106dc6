package dev.sluice.tools;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** query_cancel: stops a running query started by another call of the same session. */
public final class QueryCancelTool implements Tool {

  private static final ToolSpec SPEC = new ToolSpec(
      "query_cancel",
      "Cancel a running query",
      "Cancel a query this session started and that is still running, by the queryId reported in "
          + "its progress or error. The engine's work is stopped (PostgreSQL cancel request, "
          + "MySQL/MariaDB KILL QUERY, SQLite worker process killed) and the original call ends "
          + "with error_type cancelled. Queries of other sessions cannot be cancelled.",
      Schemas.object()
          .put("properties", new JsonObject().put("queryId", Schemas.string("The query to cancel")
              .put("minLength", 1)))
          .put("required", new JsonArray().add("queryId"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject().put("queryId", Schemas.string())
              .put("cancelled", new JsonObject().put("type", "boolean")))
          .put("required", new JsonArray().add("queryId").add("cancelled")),
      new JsonObject().put("title", "Cancel a running query").put("readOnlyHint", false)
          .put("destructiveHint", false).put("idempotentHint", true).put("openWorldHint", false));

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
