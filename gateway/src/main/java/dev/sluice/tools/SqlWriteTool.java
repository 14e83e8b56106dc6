package dev.sluice.tools;

import dev.sluice.audit.AuditRecords;
import dev.sluice.audit.AuditTrail;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlRequest;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.guard.WriteGuard;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * sql_write: one DML/DDL statement for a principal that may write on the connection, in its own
 * transaction under the deadline. Destructive statements (DROP, TRUNCATE, UPDATE/DELETE without
 * WHERE) first answer confirmation_required with an estimate of the rows at stake. Every write is
 * audited before it runs and again with its outcome.
 */
public final class SqlWriteTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sql_write");

  /** RETURNING rows sent back at most. */
  static final int MAX_RETURNING_ROWS = 100;

  private final ConnectionDirectory directory;
  private final AuditTrail audit;
  private final String nodeId;

  public SqlWriteTool(ConnectionDirectory directory, AuditTrail audit, String nodeId) {
    this.directory = directory;
    this.audit = audit;
    this.nodeId = nodeId;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    if (!directory.principals().mayWrite(ctx.principal(), c.id())) {
      throw new SqlError(ErrorType.PERMISSION_DENIED, "writes are not enabled for principal '" + ctx.principal()
          + "' on '" + c.id() + "'").with("hint", "Ask the operator to add this connection to your principal's "
          + "writes:; reads go to sql_execution.");
    }
    SqlRequest request = SqlRequest.query(c.id(), args.getString("sql"), null,
        Math.min(MAX_RETURNING_ROWS, c.maxRowsCeiling())).withMode(SqlRequest.Mode.WRITE);
    boolean confirmed = args.getBoolean("confirm_destructive", false);
    return directory.gate().admit(c, request, List.of(), ctx).compose(a -> {
      WriteGuard.Write w = WriteGuard.check(a);
      return confirm(c, w, confirmed, ctx).compose(v -> {
        audit.record(AuditRecords.writeIntent(nodeId, ctx.principal(), ctx.sessionId(), c.id(), w.sql(),
            a.fingerprint(), w.kind(), w.table(), confirmed));
        ctx.progress(0, null, "writing");
        return directory.gate().execute(c, request.withAnalysis(a), ctx, p -> { });
      }).map(r -> result(c, w, r));
    });
  }

  /** Destructive statements answer confirmation_required (with the rows at stake) until confirmed. */
  private Future<Void> confirm(ConnectionConfig c, WriteGuard.Write w, boolean confirmed, ToolContext ctx) {
    return w.destructive() && !confirmed ? estimate(c, w, ctx).compose(rows ->
        Future.failedFuture(new SqlError(ErrorType.CONFIRMATION_REQUIRED, w.why() + ": " + (rows == null
            ? "the number of rows at stake is unknown" : "about " + rows + " rows in " + w.table())
            + "; nothing was changed. Repeat with confirm_destructive: true if that is intended.")
            .with("estimatedRows", rows).with("kind", w.kind()).with("table", w.table())))
        : Future.succeededFuture();
  }

  private static ToolResult result(ConnectionConfig c, WriteGuard.Write w, JsonObject r) {
      r.put("connectionId", c.id()).put("kind", w.kind()).put("table", w.table());
      StringBuilder text = new StringBuilder(w.kind().toUpperCase(java.util.Locale.ROOT)).append(" on ")
          .append(w.table()).append(": ").append(r.getInteger("rowsAffected", 0)).append(" rows affected");
      if (!r.getJsonArray("rows", new JsonArray()).isEmpty()) {
        text.append('\n').append(ResultText.render(r));
      }
      return ToolResult.of(r, text.toString());
  }

  /** Rows at stake, counted under the read path (guard, deadline); null when it cannot be counted. */
  private Future<Long> estimate(ConnectionConfig c, WriteGuard.Write w, ToolContext ctx) {
    SqlRequest count = SqlRequest.query(c.id(), "SELECT count(*) FROM " + w.table(), null, 1);
    return directory.gate().run(c, count, List.of(), ctx, p -> { })
        .map(r -> {
          Object v = r.getJsonArray("rows").getJsonArray(0).getValue(0);
          return v instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(v));
        })
        .otherwise(err -> null);
  }
}
