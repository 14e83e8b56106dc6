package dev.sluice.tools;

import dev.sluice.access.RateLimits;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.tracing.CallSpan;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * Sends one statement to the connection's executor on behalf of a tool call: assigns the queryId,
 * routes executor progress back to the call, and wires cancellation (notifications/cancelled or
 * query_cancel) to the executor's cancel address.
 */
public final class ExecutorClient {

  private ExecutorClient() {}

  /**
   * @param request the execute body without connectionId/queryId/progressAddress (added here)
   * @param limits the caller's rate limits: a statement over budget fails before it is sent
   * @param onProgress executor progress messages ({@code stage}, {@code rows})
   * @return the executor's reply body; fails with a {@link SqlError}
   */
  public static Future<JsonObject> execute(ConnectionConfig c, JsonObject request, ToolContext ctx,
      RateLimits limits, Consumer<JsonObject> onProgress) {
    return limits.acquire(ctx.principal()).compose(permit -> {
      String queryId = UUID.randomUUID().toString();
      request.put("connectionId", c.id()).put("queryId", queryId)
          .put("progressAddress", ctx.progressAddress());
      ctx.trackQuery(queryId, onProgress, () -> ctx.vertx().eventBus()
          .request(SqlBus.cancel(c.driver()), new JsonObject().put("queryId", queryId)));
      DeliveryOptions opts = new DeliveryOptions()
          .setSendTimeout(c.queryTimeoutMs() + SqlBus.REPLY_GRACE_MS);
      long sent = CallSpan.now();
      return ctx.vertx().eventBus().<JsonObject>request(SqlBus.execute(c.driver()), request, opts)
          .map(m -> {
            // the executor's timings become the call's guard / pool wait / engine spans, not output
            ctx.span().statement((JsonObject) m.body().remove("timings"), sent);
            return m.body().put("queryId", queryId);
          })
          .recover(err -> Future.failedFuture(SqlError.from(err).with("queryId", queryId)))
          .onComplete(ar -> permit.release(ar.succeeded() ? ar.result().getInteger("rowCount", 0) : 0));
    });
  }
}
