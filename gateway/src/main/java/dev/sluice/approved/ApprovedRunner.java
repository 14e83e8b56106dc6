package dev.sluice.approved;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlRequest;
import dev.sluice.sql.SqlError;
import dev.sluice.tools.ConnectionDirectory;
import dev.sluice.tools.ResultText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * Runs one approved query for a caller: its connection must be the caller's, the parameters must
 * match their schema (errors name the parameter), the caller's table policy applies except to the
 * tables the definition grants, and the statement goes through the same executor, deadline, row
 * cap and rate limits as any other, with the values bound by the driver.
 */
final class ApprovedRunner {

  private ApprovedRunner() {}

  static Future<ToolResult> run(ApprovedQuery q, JsonObject given, Integer limit, ToolContext ctx,
      ConnectionDirectory directory) {
    ConnectionConfig c = directory.require(q.connectionId(), ctx.principal());
    JsonObject params = given == null ? new JsonObject() : given;
    List<String> problems = ToolRegistry.validate(q.parameterSchema(), params);
    if (problems != null) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "parameters of approved query '" + q.id() + "' do not match "
          + "its schema: " + String.join("; ", problems).replace("arguments: ", ""))
          .with("problems", new JsonArray(problems)).with("parameterSchema", q.parameterSchema());
    }
    JsonObject bound = q.withDefaults(params);
    int rows = Math.min(Math.min(limit == null ? q.limitDefault() : limit, q.limitMax()), c.maxRowsCeiling());
    ctx.progress(0, null, "validating");
    SqlRequest request = SqlRequest.query(c.id(), q.sql(), null, rows).withParams(bound);
    return directory.gate().run(c, request, q.grantsTables(), ctx, p -> {
      if ("executing".equals(p.getString("stage"))) {
        ctx.progress(1, null, "executing");
      }
    }).map(r -> {
      r.put("connectionId", c.id()).put("approvedQueryId", q.id());
      return ToolResult.of(r, ResultText.render(r));
    });
  }
}
