package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engines;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.sql.LocalExecutors;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlRequest;
import dev.sluice.sql.TemplateSql;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.guard.ReadGuard;
import dev.sluice.sql.guard.WriteGuard;
import dev.sluice.tracing.CallSpan;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The one path of an agent's statement from a tool to its executor: the caller's rate limit, then
 * the {@link AnalysedStatement} (made off the event loop, once), the read or write guard on it, the
 * caller's table policy on it, and the request to the executor carrying it, with progress routed
 * back to the call and cancellation wired to the executor. Engine errors come back scrubbed of
 * names the caller's policy hides.
 */
public final class SqlGate {

  private final ConnectionDirectory directory;

  public SqlGate(ConnectionDirectory directory) {
    this.directory = directory;
  }

  /** Analyses a statement for a connection's engine (cached; off the event loop). */
  public Future<AnalysedStatement> analyse(ToolContext ctx, ConnectionConfig c, String sql) {
    return SqlAnalyzer.analyse(ctx.vertx(), Engines.of(c.driver()).dialect(), sql);
  }

  /**
   * Admits one statement: its analysis (an approved query's with the placeholders read as NULL),
   * the read or write guard on it, the caller's table policy on it. The fingerprint goes to the
   * call's audit record.
   *
   * @param granted tables the caller may read whatever its policy says (an approved query's
   *     {@code grants_tables}), usually empty
   */
  public Future<AnalysedStatement> admit(ConnectionConfig c, SqlRequest request, List<String> granted,
      ToolContext ctx) {
    Future<AnalysedStatement> analysed = request.analysis() != null ? Future.succeededFuture(request.analysis())
        : analyse(ctx, c, request.params() != null ? TemplateSql.forGuard(request.sql()) : request.sql());
    return analysed.compose(a -> {
      ctx.statementFingerprint(a.fingerprint());
      if (request.mode() == SqlRequest.Mode.WRITE) {
        WriteGuard.check(a);
      } else {
        Refusal r = ReadGuard.check(a);
        if (r != null) {
          return Future.failedFuture(r.toError());
        }
      }
      return directory.policy().check(ctx.principal(), c, a, granted).map(v -> a);
    });
  }

  /** {@link #admit} then {@link #execute}, under one rate-limit permit. */
  public Future<JsonObject> run(ConnectionConfig c, SqlRequest request, List<String> granted, ToolContext ctx,
      Consumer<JsonObject> onProgress) {
    return directory.limits().acquire(ctx.principal()).compose(permit -> {
      long admitting = CallSpan.now();
      return admit(c, request, granted, ctx)
        .compose(a -> send(c, request.withAnalysis(a), ctx, onProgress, admitting)
            .recover(err -> scrub(c, ctx, SqlError.from(err))))
        .onComplete(ar -> permit.release(ar.succeeded() ? ar.result().getInteger("rowCount", 0) : 0));
    });
  }

  /**
   * Sends an admitted request (its analysis attached) under the caller's rate limit.
   *
   * @param onProgress executor progress messages ({@code stage}, {@code rows})
   * @return the executor's reply; fails with a {@link SqlError}
   */
  public Future<JsonObject> execute(ConnectionConfig c, SqlRequest admitted, ToolContext ctx,
      Consumer<JsonObject> onProgress) {
    return directory.limits().acquire(ctx.principal()).compose(permit -> send(c, admitted, ctx, onProgress,
            CallSpan.now())
        .recover(err -> scrub(c, ctx, SqlError.from(err)))
        .onComplete(ar -> permit.release(ar.succeeded() ? ar.result().getInteger("rowCount", 0) : 0)));
  }

  /** @param since when the gateway started on this statement (epoch nanos): the guard span starts there */
  private Future<JsonObject> send(ConnectionConfig c, SqlRequest request, ToolContext ctx,
      Consumer<JsonObject> onProgress, long since) {
    long sent = CallSpan.now();
    // unique, not secret: query_cancel only reaches the session's own queries; UUID.randomUUID
    // would take SecureRandom's lock and read the kernel's pool on every call
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    String queryId = new UUID(random.nextLong(), random.nextLong()).toString();
    SqlRequest routed = request.withRouting(c.id(), queryId, ctx.progressAddress())
        .withCaller(ctx.principal(), ctx.sessionId());
    ctx.trackQuery(queryId, onProgress, () -> ctx.vertx().eventBus()
        .request(SqlBus.cancel(c.driver()), new JsonObject().put("queryId", queryId)));
    return LocalExecutors.execute(ctx.vertx(), c.driver(), routed, c.queryTimeoutMs() + SqlBus.REPLY_GRACE_MS)
        .map(body -> {
          // the executor's timings become the call's guard / pool wait / engine spans, not output;
          // the gateway's own analysis, guard and policy time counts to the guard span
          JsonObject t = (JsonObject) body.remove("timings");
          if (t != null) {
            t.put("analysisMs", t.getDouble("analysisMs", 0.0) + (sent - since) / 1e6);
          }
          ctx.span().statement(t, since);
          return body.put("queryId", queryId);
        })
        .recover(err -> Future.failedFuture(SqlError.from(err).with("queryId", queryId)));
  }

  /**
   * An engine error as a governed caller may see it, without names its policy hides. (A policy
   * refusal names only what the caller wrote; it is not scrubbed.)
   */
  private Future<JsonObject> scrub(ConnectionConfig c, ToolContext ctx, SqlError e) {
    if (!directory.policy().governs(ctx.principal(), c.id())) {
      return Future.failedFuture(e);
    }
    return directory.policy().scrub(ctx.principal(), c, e).compose(Future::failedFuture);
  }
}
