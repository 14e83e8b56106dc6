package dev.sluice.testing;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.atomic.AtomicInteger;

/** Test-only tools that exercise transport behaviour (progress over time, cancellation, logs). */
public final class TestTools {

  private TestTools() {}

  private static JsonObject schema(JsonObject props) {
    return new JsonObject().put("type", "object").put("properties", props);
  }

  /** Emits {@code steps} progress notifications {@code intervalMs} apart, then answers. */
  public static Tool ticker() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return new ToolSpec("test_ticker", null, "progress ticker", schema(new JsonObject()
            .put("steps", new JsonObject().put("type", "integer"))
            .put("intervalMs", new JsonObject().put("type", "integer"))), null, null);
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        int steps = args.getInteger("steps", 3);
        long interval = args.getInteger("intervalMs", 100);
        Promise<ToolResult> p = Promise.promise();
        AtomicInteger n = new AtomicInteger();
        ctx.vertx().setPeriodic(interval, t -> {
          int i = n.incrementAndGet();
          ctx.progress(i, (double) steps, "step " + i);
          ctx.log("info", "ticker", "tick " + i);
          if (i >= steps) {
            ctx.vertx().cancelTimer(t);
            p.tryComplete(ToolResult.of(new JsonObject().put("steps", steps), "done " + steps));
          }
        });
        return p.future();
      }

      @Override
      public boolean talksToClient() {
        return true;
      }
    };
  }

  /**
   * Reports progress "started" at once and answers after {@code ms} (at once for 0), reporting
   * "finishing" first. Unlike {@link #ticker} it never talks to the client, so its POST streams only
   * if it outlasts the gateway's stream delay.
   */
  public static Tool progress() {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return new ToolSpec("test_progress", null, "progress, then an answer after ms",
            schema(new JsonObject().put("ms", new JsonObject().put("type", "integer"))), null, null);
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        int ms = args.getInteger("ms", 0);
        ctx.progress(1, 2.0, "started");
        if (ms <= 0) {
          return Future.succeededFuture(ToolResult.of(new JsonObject().put("ms", ms), "done"));
        }
        Promise<ToolResult> p = Promise.promise();
        ctx.vertx().setTimer(ms, t -> {
          ctx.progress(2, 2.0, "finishing");
          p.complete(ToolResult.of(new JsonObject().put("ms", ms), "done"));
        });
        return p.future();
      }
    };
  }

  /** Never answers until cancelled; counts cancellations it saw. */
  public static Tool hang(AtomicInteger cancellations) {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return new ToolSpec("test_hang", null, "waits until cancelled", schema(new JsonObject()), null, null);
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        Promise<ToolResult> p = Promise.promise();
        long timer = ctx.vertx().setTimer(60_000, t -> p.tryComplete(ToolResult.of(new JsonObject(), "late")));
        ctx.onCancel(() -> {
          cancellations.incrementAndGet();
          ctx.vertx().cancelTimer(timer);
          p.tryFail("cancelled");
        });
        return p.future();
      }
    };
  }

  /** A tool named {@code name} that echoes its arguments. */
  public static Tool echo(String name) {
    return new Tool() {
      @Override
      public ToolSpec spec() {
        return new ToolSpec(name, null, "echo", schema(new JsonObject()
            .put("text", new JsonObject().put("type", "string")))
            .put("required", new JsonArray().add("text")), null, null);
      }

      @Override
      public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
        return Future.succeededFuture(ToolResult.of(args, args.getString("text")));
      }
    };
  }
}
