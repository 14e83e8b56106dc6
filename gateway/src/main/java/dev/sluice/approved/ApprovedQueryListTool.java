package dev.sluice.approved;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** approved_query_list: the vetted queries this caller may run, with their parameter schemas. */
public final class ApprovedQueryListTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("approved_query_list");

  private final ApprovedCatalog catalog;
  private final ConnectionDirectory directory;

  public ApprovedQueryListTool(ApprovedCatalog catalog, ConnectionDirectory directory) {
    this.catalog = catalog;
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    String only = args.getString("connectionId");
    if (only != null) {
      directory.require(only, ctx.principal());
    }
    JsonArray out = new JsonArray();
    StringBuilder text = new StringBuilder();
    for (ApprovedQuery q : catalog.all().values()) {
      if (!directory.principals().mayUse(ctx.principal(), q.connectionId())
          || only != null && !only.equals(q.connectionId())) {
        continue;
      }
      JsonObject e = new JsonObject().put("id", q.id()).put("name", q.name()).put("description", q.description())
          .put("connectionId", q.connectionId()).put("parameters", q.parameterSchema())
          .put("limit", new JsonObject().put("default", q.limitDefault()).put("max", q.limitMax()))
          .put("asTool", q.asTool());
      if (q.showSql()) {
        e.put("sql", q.sql());
      }
      out.add(e);
      text.append(q.id()).append(" (").append(q.connectionId()).append("): ").append(q.description()).append('\n');
    }
    if (out.isEmpty()) {
      text.append("No approved queries are available to you.");
    }
    return Future.succeededFuture(ToolResult.of(new JsonObject().put("queries", out), text.toString().trim()));
  }
}
