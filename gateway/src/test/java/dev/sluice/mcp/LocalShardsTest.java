package dev.sluice.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A POST handed to a session shard on the same node, without a bus message, is answered as the
 * bus answered it: on the caller's context, failures as {@code ReplyException}s with the same
 * codes, a timeout when the shard keeps it past the caller's patience; a stopped shard is no
 * longer handed anything.
 */
class LocalShardsTest {

  @TempDir
  Path dir;

  /** Runs {@code call} on {@code ctx}: its outcome and the context its answer came on. */
  private static Object[] on(Context ctx, Supplier<Future<JsonObject>> call) throws Exception {
    CompletableFuture<Object[]> done = new CompletableFuture<>();
    ctx.runOnContext(v -> call.get().onComplete(ar -> done.complete(
        new Object[] {ar.succeeded() ? ar.result() : ar.cause(), Vertx.currentContext()})));
    return done.get(30, TimeUnit.SECONDS);
  }

  @Test
  void aShardOnThisNodeAnswersLikeTheBusDid() throws Exception {
    // a short idle timeout makes the shard's sweep run every second
    ServerConfig server = ServerConfig.defaults().withSessionIdleTimeoutMs(4_000);
    TestGateway gw = TestGateway.start(TestGateway.config(server, List.of(), dir), null);
    Vertx vertx = gw.gateway.vertx();
    String address = McpBus.shard(gw.gateway.nodeId(), 0);
    try {
      assertTrue(LocalShards.SHARDS.get(vertx, address) != null);
      McpHttpClient client = gw.client();
      client.initialize(ProtocolRevision.LATEST);
      assertEquals(200, client.post(McpHttpClient.request(client.nextId(), "ping", null), Map.of()).status());

      Context caller = vertx.getOrCreateContext();
      JsonObject unknownSession = new JsonObject().put("op", "post").put("sessionId", gw.gateway.nodeId() + ".0.nope")
          .put("messages", new JsonArray().add(McpHttpClient.request(1, "ping", null))).put("batch", false)
          .put("sse", false);
      Object[] notFound = on(caller, () -> LocalShards.request(vertx, address, unknownSession, 5_000));
      assertEquals(404, ((JsonObject) notFound[0]).getInteger("status"));
      assertSame(caller, notFound[1], "the answer runs on the caller's context");

      Object[] unknownOp = on(caller, () -> LocalShards.request(vertx, address, new JsonObject().put("op", "nope"), 5_000));
      ReplyException refused = (ReplyException) unknownOp[0];
      assertEquals(ReplyFailure.RECIPIENT_FAILURE, refused.failureType());
      assertEquals(400, refused.failureCode());
      assertEquals("unknown op", refused.getMessage());

      // "detach" is never answered: the sweep gives up on it, as the bus's timer would have
      long t0 = System.nanoTime();
      Object[] unanswered = on(caller, () -> LocalShards.request(vertx, address,
          new JsonObject().put("op", "detach").put("sessionId", "x").put("streamId", "y"), 200));
      long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
      assertEquals(ReplyFailure.TIMEOUT, ((ReplyException) unanswered[0]).failureType());
      assertTrue(tookMs >= 200 && tookMs < 5_000, "gave up after " + tookMs + " ms");
    } finally {
      gw.close();
    }
    assertFalse(LocalShards.SHARDS.get(vertx, address) != null, "a stopped shard is handed nothing");
  }
}
