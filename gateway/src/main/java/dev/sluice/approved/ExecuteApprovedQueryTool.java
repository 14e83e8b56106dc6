package dev.sluice.approved;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** execute_approved_query: runs a vetted query by id with typed parameters. */
public final class ExecuteApprovedQueryTool implements Tool {

  static final ToolSpec SPEC = ToolSpec.resource("execute_approved_query");

  private final ApprovedCatalog catalog;
  private final ConnectionDirectory directory;

  public ExecuteApprovedQueryTool(ApprovedCatalog catalog, ConnectionDirectory directory) {
    this.catalog = catalog;
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ApprovedQuery q = find(args.getString("queryId"), ctx.principal());
    return ApprovedRunner.run(q, args.getJsonObject("parameters"), args.getInteger("limit"), ctx, directory);
  }

  private ApprovedQuery find(String id, String principal) {
    List<ApprovedQuery> mine = catalog.all().values().stream()
        .filter(q -> directory.principals().mayUse(principal, q.connectionId())).toList();
    return mine.stream().filter(q -> q.id().equals(id)).findFirst().orElseThrow(() -> {
      List<String> ids = mine.stream().map(ApprovedQuery::id).toList();
      return new SqlError(ErrorType.NOT_FOUND, "no approved query '" + id + "'; available: " + ids)
          .with("suggestions", new JsonArray(NameSuggester.similar(id, ids)))
          .with("hint", "Call approved_query_list for ids and parameters.");
    });
  }

  @Override
  public JsonObject auditArgs(JsonObject args) {
    ApprovedQuery q = catalog.all().get(args.getString("queryId"));
    JsonObject params = args.getJsonObject("parameters", new JsonObject());
    return new JsonObject().put("connectionId", q == null ? null : q.connectionId())
        .put("approvedQueryId", args.getString("queryId"))
        .put("parameters", q == null ? new JsonObject().put("unknown query", true) : q.redacted(params));
  }
}
