package dev.sluice.approved;

import dev.sluice.bus.JsonFields;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** An approved query with {@code as_tool: true}: its own MCP tool, its parameters as the inputSchema. */
final class ApprovedQueryTool implements Tool {

  private final ApprovedQuery query;
  private final ConnectionDirectory directory;
  private final ToolSpec spec;

  ApprovedQueryTool(ApprovedQuery query, ConnectionDirectory directory) {
    this.query = query;
    this.directory = directory;
    JsonObject input = query.parameterSchema();
    input.getJsonObject("properties").put("limit", new JsonObject().put("type", "integer").put("minimum", 1)
        .put("maximum", query.limitMax()).put("description", "Rows to return (default " + query.limitDefault() + ")"));
    // it answers what execute_approved_query answers, so it declares the same output and hints
    ToolSpec shape = ExecuteApprovedQueryTool.SPEC;
    this.spec = new ToolSpec(query.id(), query.name(),
        query.description() + " (approved query on connection '" + query.connectionId() + "')", input,
        shape.outputSchema().copy(), shape.annotations().copy());
  }

  @Override
  public ToolSpec spec() {
    return spec;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    JsonObject params = JsonFields.copy(args);
    Object limit = params.remove("limit");
    return ApprovedRunner.run(query, params, limit == null ? null : ((Number) limit).intValue(), ctx, directory);
  }

  @Override
  public JsonObject auditArgs(JsonObject args) {
    JsonObject params = JsonFields.copy(args);
    params.remove("limit");
    return new JsonObject().put("connectionId", query.connectionId()).put("approvedQueryId", query.id())
        .put("parameters", query.redacted(params));
  }
}
