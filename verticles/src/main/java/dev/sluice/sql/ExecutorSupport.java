package dev.sluice.sql;

import dev.sluice.bus.JsonFields;
import dev.sluice.bus.ByReferenceJson;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import java.util.function.Function;
import java.util.function.Supplier;

/** Request handling the bus workers share (executors, catalog, ingest), so all answer agents alike. */
public final class ExecutorSupport {

  private ExecutorSupport() {}

  /** Registers a bus handler whose Future result is the reply and whose failure is a {@link SqlError}. */
  public static Future<Void> consume(Vertx vertx, String address, Function<JsonObject, Future<JsonObject>> handler) {
    // node-local: on a clustered bus every node runs its own executors, catalog and ingest runner,
    // and a query's cancel must reach the node that runs it
    MessageConsumer<JsonObject> consumer = vertx.eventBus().localConsumer(address, (Message<JsonObject> msg) ->
        attempt(() -> handler.apply(msg.body() == null ? new JsonObject() : msg.body()))
            .onSuccess(msg::reply)
            .onFailure(err -> SqlError.from(err).failReply(msg)));
    return consumer.completion();
  }

  /**
   * Sends a progress stage of {@code queryId} to {@code address}: handed over on this node
   * ({@link LocalProgress}), else by reference over the bus (the sender registered
   * {@link ByReferenceJson} when it started: SqlExecutorVerticle).
   */
  public static void progress(Vertx vertx, String address, String queryId, String stage, Integer rows) {
    JsonObject p = JsonFields.object(4).put("queryId", queryId).put("stage", stage);
    if (rows != null) {
      p.put("rows", rows);
    }
    p.put("message", switch (stage) {
      case "validating" -> "checking the statement";
      case "executing" -> "running on the database";
      default -> rows + " rows fetched";
    });
    if (!LocalProgress.deliver(vertx, address, p)) {
      vertx.eventBus().send(address, p, ByReferenceJson.options());
    }
  }

  public static <T> Future<T> attempt(Supplier<Future<T>> s) {
    try {
      return s.get();
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }
}
