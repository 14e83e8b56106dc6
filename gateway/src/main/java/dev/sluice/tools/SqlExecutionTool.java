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

/**
 * sql_execution: one read-only statement, bounded by the connection's deadline and row cap, with
 * progress (validating → executing → fetched N rows) and cancellation.
 */
public final class SqlExecutionTool implements Tool {

  static final int MAX_ROWS_LIMIT = 10_000;

  private static final ToolSpec SPEC = new ToolSpec(
      "sql_execution",
      "Run read-only SQL",
      "Run ONE read-only SQL statement (SELECT, WITH ... SELECT, VALUES, EXPLAIN) on a connection "
          + "and return the rows. Writes, multiple statements, session settings and host-reaching "
          + "functions are refused with error_type validation_failed. Results stop at maxRows "
          + "(truncated: true tells you there were more); every query has the connection's "
          + "deadline (see connection_list) and fails with 'query exceeded Ns' past it. Exact "
          + "numerics and 64-bit integers come back as strings, timestamps as ISO-8601, binary as "
          + "base64. Use entity_details to check table and column names before writing SQL.",
      Schemas.object()
          .put("properties", new JsonObject()
              .put("connectionId", Schemas.connectionId())
              .put("sql", Schemas.string("One read-only SQL statement in the connection's dialect")
                  .put("minLength", 1))
              .put("maxRows", Schemas.integer("Most rows to return (default: the connection's max_rows)",
                  1, MAX_ROWS_LIMIT)))
          .put("required", new JsonArray().add("connectionId").add("sql"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject()
              .put("connectionId", Schemas.string())
              .put("queryId", Schemas.string())
              .put("headers", Schemas.arrayOf(Schemas.string()))
              .put("headerTypes", Schemas.arrayOf(Schemas.string()))
              .put("rows", new JsonObject().put("type", "array").put("items",
                  new JsonObject().put("type", "array")))
              .put("rowCount", new JsonObject().put("type", "integer"))
              .put("truncated", new JsonObject().put("type", "boolean"))
              .put("executionTimeMs", new JsonObject().put("type", "number")))
          .put("required", new JsonArray().add("headers").add("rows").add("rowCount").add("truncated")),
      ToolSpec.readOnlyAnnotations("Run read-only SQL", false));

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
