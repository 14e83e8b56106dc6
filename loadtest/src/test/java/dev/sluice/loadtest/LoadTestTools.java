package dev.sluice.loadtest;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/** Stand-ins for SQL tools while no executor is deployed: progress, a deadline error, a hang. */
public final class LoadTestTools {

  private LoadTestTools() {}

  private static ToolSpec spec(String name) {
    return new ToolSpec(name, null, name, new JsonObject().put("type", "object"), null, null);
  }

  /** Two progress notifications 5 ms apart, then a small result. */
  static Tool progress() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return LoadTestTools.spec("load_progress");
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        Promise<ToolResult> p = Promise.promise();
        ctx.progress(1, 2.0, "executing");
        // past the gateway's 10 ms stream delay, so that the progress streams (a quicker call is
        // answered as one JSON body, without it)
        ctx.vertx().setTimer(30, t -> {
          ctx.progress(2, 2.0, "fetched 1 rows");
          p.complete(ToolResult.of(new JsonObject().put("rowCount", 1), "1 row"));
        });
        return p.future();
      }
    };
  }

  /** Fails like a query past its deadline, after 30 ms. */
  static Tool deadline() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return LoadTestTools.spec("load_deadline");
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        ctx.progress(1, null, "executing");
        Promise<ToolResult> p = Promise.promise();
        ctx.vertx().setTimer(30, t -> p.fail(new SqlError(ErrorType.TIMEOUT, "query exceeded 0.03s")));
        return p.future();
      }
    };
  }

  /** Never answers until cancelled (bounded at 20 s). */
  static Tool hang() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return LoadTestTools.spec("load_hang");
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        ctx.progress(1, null, "executing");
        Promise<ToolResult> p = Promise.promise();
        long timer = ctx.vertx().setTimer(20_000, t -> p.tryComplete(ToolResult.of(new JsonObject(), "late")));
        ctx.onCancel(() -> {
          ctx.vertx().cancelTimer(timer);
          p.tryFail(new SqlError(ErrorType.CANCELLED, "cancelled"));
        });
        return p.future();
      }
    };
  }
}
