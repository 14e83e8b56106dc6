package dev.sluice.mcp;

import dev.sluice.bus.JsonFields;
import dev.sluice.mcp.tool.ToolContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What every running tools/call shares, whichever era asked for it: progress with strictly
 * increasing values, cancel hooks, the executor queries it started (progress routing and cancel).
 * A session call ({@link ToolCall}) and a stateless call (2026-07-28) differ only in where their
 * notifications go, how they reach the client, and what they know of it. Lives on one event loop.
 */
public abstract class RunningCall implements ToolContext {

  protected final Vertx vertx;
  private final String callId;
  private final Object progressToken;
  private final String progressAddress;
  /** Executor queryId → call, shared by every call of one event loop, for progress routing. */
  private final Map<String, RunningCall> loopQueries;
  private final List<Runnable> cancelHooks = new ArrayList<>();
  // most calls run one query: tables of two, not the default sixteen, made for every call
  private final Map<String, Supplier<Future<?>>> queryCancels = new HashMap<>(2);
  private final Map<String, Consumer<JsonObject>> queryProgress = new HashMap<>(2);
  private boolean cancelled;
  private String fingerprint;
  /** The tools/call trace span (a no-op unless OpenTelemetry is configured). */
  dev.sluice.tracing.CallSpan span = dev.sluice.tracing.CallSpan.NONE;
  /** The query this call started last: progress names it, so query_cancel can be given it. */
  private String lastQueryId;
  private String lastProgressMessage;
  private double lastProgress = Double.NEGATIVE_INFINITY;
  /** What the operator's console shows of a call in flight (set when the tool starts). */
  private String tool;
  private String connectionId;
  private String sql;
  private long startedAt = System.currentTimeMillis();
  /** Who stopped the call from the operator's console; null when it was not stopped there. */
  private String cancelledBy;

  protected RunningCall(Vertx vertx, String callId, Object progressToken, String progressAddress,
      Map<String, RunningCall> loopQueries) {
    this.vertx = vertx;
    this.callId = callId;
    this.progressToken = progressToken;
    this.progressAddress = progressAddress;
    this.loopQueries = loopQueries;
  }

  /** Delivers a request-related notification to the client, if it can still be reached. */
  protected abstract void notifyClient(JsonObject notification);

  /** Whether a notifications/message at {@code level} is wanted by the client. */
  protected abstract boolean logs(String level);

  /**
   * True when the call stopped to ask the client something it must answer first (2026-07-28: an
   * input_required result); its failure is then no error.
   */
  public boolean awaitingClient() {
    return false;
  }

  /** Called once per query this call starts (a subclass may index it for query_cancel). */
  protected void queryStarted(String queryId) {
  }

  /** Called once per query this call started, when the call ends. */
  protected void queryEnded(String queryId) {
  }

  @Override
  public Vertx vertx() {
    return vertx;
  }

  @Override
  public String callId() {
    return callId;
  }

  @Override
  public String progressAddress() {
    return progressAddress;
  }

  @Override
  public void statementFingerprint(String fingerprint) {
    this.fingerprint = fingerprint;
  }

  @Override
  public dev.sluice.tracing.CallSpan span() {
    return span;
  }

  /** Notes which tool runs with which arguments, for the operator's console. */
  void describe(String toolName, JsonObject args) {
    tool = toolName;
    connectionId = args.getValue("connectionId") instanceof String c ? c : null;
    sql = args.getValue("sql") instanceof String q ? q : null;
    startedAt = System.currentTimeMillis();
  }

  /** SQL beyond this is cut in the console's view: the page shows it, the audit trail keeps it whole. */
  private static final int CONSOLE_SQL_CHARS = 4_000;

  /** The call as the operator's console lists it. */
  public JsonObject consoleView() {
    return new JsonObject().put("callId", callId).put("tool", tool).put("connectionId", connectionId)
        .put("sql", sql == null || sql.length() <= CONSOLE_SQL_CHARS ? sql : sql.substring(0, CONSOLE_SQL_CHARS) + "…")
        .put("principal", principal()).put("startedAt", startedAt)
        .put("elapsedMs", System.currentTimeMillis() - startedAt)
        .put("progress", lastProgressMessage).put("queryId", lastQueryId).put("cancelled", cancelled);
  }

  /** The analysed statement's fingerprint, for the audit record; null when the call ran none. */
  public String fingerprint() {
    return fingerprint;
  }

  /** The last progress message, with its queryId (a task's statusMessage). */
  public String lastProgressMessage() {
    return lastProgressMessage;
  }

  @Override
  public void progress(double progress, Double total, String message) {
    if (cancelled) {
      return;
    }
    if (message != null) {
      lastProgressMessage = lastQueryId == null ? message : message + " (queryId " + lastQueryId + ")";
    }
    if (progressToken == null) {
      return;
    }
    // the spec requires strictly increasing progress values within one request
    double p = progress > lastProgress ? progress : lastProgress + 1;
    lastProgress = p;
    JsonObject params = JsonFields.object(4).put("progressToken", progressToken).put("progress", p);
    if (total != null) {
      params.put("total", Math.max(total, p));
    }
    if (message != null) {
      params.put("message", lastProgressMessage);
    }
    notifyClient(JsonRpc.notification("notifications/progress", params));
  }

  @Override
  public void log(String level, String logger, Object data) {
    if (cancelled || !logs(level)) {
      return;
    }
    JsonObject params = new JsonObject().put("level", level).put("data", data);
    if (logger != null) {
      params.put("logger", logger);
    }
    notifyClient(JsonRpc.notification("notifications/message", params));
  }

  @Override
  public void onCancel(Runnable hook) {
    if (cancelled) {
      hook.run();
    } else {
      cancelHooks.add(hook);
    }
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }

  /** Stops the call: its queries are cancelled at the engine, its hooks run, its result is dropped. */
  /** The operator's console stops the call: cancelled like any other, and the client told who did it. */
  public void cancelByOperator(String operator) {
    if (!cancelled) {
      cancelledBy = operator;
    }
    cancel();
  }

  /** The operator who cancelled the call from the console, or null. */
  public String cancelledBy() {
    return cancelledBy;
  }

  /**
   * What a client is told of a call the operator cancelled, in band, instead of waiting for an
   * answer it did not ask to give up on.
   */
  public JsonObject operatorCancelledResult() {
    return ToolInvocation.errorResult(new dev.sluice.sql.SqlError(dev.sluice.sql.ErrorType.CANCELLED,
        "the gateway's operator (" + cancelledBy + ") cancelled this call; a query it had started was cancelled "
            + "at the database"));
  }

  public void cancel() {
    if (cancelled) {
      return;
    }
    cancelled = true;
    queryCancels.values().forEach(Supplier::get);
    cancelHooks.forEach(Runnable::run);
  }

  @Override
  public void trackQuery(String queryId, Consumer<JsonObject> onProgress, Supplier<Future<?>> cancel) {
    loopQueries.put(queryId, this);
    queryProgress.put(queryId, onProgress);
    queryCancels.put(queryId, cancel);
    lastQueryId = queryId;
    queryStarted(queryId);
  }

  /** Forgets the call's queries once it ended (progress for them is dropped from then on). */
  public void untrackQueries() {
    for (String q : queryCancels.keySet()) {
      loopQueries.remove(q);
      queryEnded(q);
    }
  }

  /** Cancels one query of this call (query_cancel from another call); false if it has none by that id. */
  public boolean cancelQuery(String queryId) {
    Supplier<Future<?>> c = queryCancels.get(queryId);
    if (c == null) {
      return false;
    }
    c.get();
    return true;
  }

  /** Routes one executor progress message to the tool that started the query. */
  public void executorProgress(JsonObject msg) {
    Consumer<JsonObject> c = queryProgress.get(msg.getString("queryId"));
    if (c != null && !cancelled) {
      c.accept(msg);
    }
  }
}
