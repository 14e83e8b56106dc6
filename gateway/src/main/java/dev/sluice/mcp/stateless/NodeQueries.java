package dev.sluice.mcp.stateless;

import dev.sluice.mcp.RunningCall;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The executor queries that stateless calls run on this node, by queryId, so query_cancel finds a
 * query whichever event loop runs it. Without a session, a query belongs to its principal: only the
 * same principal may cancel it. Thread-safe; the cancel itself runs on the call's own loop.
 */
public final class NodeQueries {

  private record Running(String principal, RunningCall call, Context context) {}

  private final Map<String, Running> running = new ConcurrentHashMap<>();

  void started(String queryId, String principal, RunningCall call) {
    running.put(queryId, new Running(principal, call, Vertx.currentContext()));
  }

  void ended(String queryId) {
    running.remove(queryId);
  }

  /** Cancels the query if {@code principal} started it and it still runs; false otherwise. */
  boolean cancel(String queryId, String principal) {
    Running r = queryId == null ? null : running.get(queryId);
    if (r == null || !r.principal().equals(principal)) {
      return false;
    }
    r.context().runOnContext(v -> r.call().cancelQuery(queryId));
    return true;
  }
}
