package dev.sluice.sql;

import dev.sluice.bus.JsonFields;
import dev.sluice.bus.ByReferenceJson;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engine;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.guard.ReadGuard;
import dev.sluice.sql.guard.WriteGuard;
import dev.sluice.sql.pool.Caller;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one executor flow, for every engine: serves {@link SqlBus#execute}, {@link SqlBus#cancel} and
 * {@link SqlBus#info} for all connections of one {@link Engine}. Per execute: take the caller's
 * {@link AnalysedStatement} (or analyse the text off the event loop), let the read or write guard
 * decide on it, hand the single statement it produced to the connection's
 * {@link EngineConnection}, and turn engine errors into agent-facing ones with name suggestions.
 *
 * <p>Deploy exactly one instance per engine: in-flight queries (for cancel) and pools live in the
 * instance, and the bus would round-robin between instances.
 */
public final class SqlExecutorVerticle extends VerticleBase {

  private static final Pattern NEAR = Pattern.compile("near '(.*)' at line \\d+", Pattern.DOTALL);

  private final Engine engine;
  private final Map<String, ConnectionConfig> configs = new LinkedHashMap<>();
  private final Map<String, EngineConnection> connections = new LinkedHashMap<>();
  /** queryId → the connection running it, for cancel. */
  private final Map<String, EngineConnection> running = new HashMap<>();
  /** Requests handed over by {@link LocalExecutors}, with when the caller gives up on each. */
  private final dev.sluice.bus.HandedOver<JsonObject> handedOver = new dev.sluice.bus.HandedOver<>();
  private long sweep;

  public SqlExecutorVerticle(Engine engine, List<ConnectionConfig> connections) {
    this.engine = engine;
    for (ConnectionConfig c : connections) {
      if (c.driver() != engine.driver()) {
        throw new IllegalArgumentException(c + " is not a " + engine.driver().wireName() + " connection");
      }
      configs.put(c.id(), c);
    }
  }

  @Override
  public Future<?> start() {
    SqlRequest.registerCodec(vertx);
    ByReferenceJson.register(vertx);
    List<Future<?>> steps = new ArrayList<>();
    configs.values().forEach(c -> {
      EngineConnection conn = engine.connect(vertx, context, c);
      connections.put(c.id(), conn);
      steps.add(conn.start());
    });
    steps.add(vertx.eventBus().localConsumer(SqlBus.execute(engine.driver()), this::onExecute).completion());
    LocalExecutors.EXECUTORS.register(vertx, engine.driver(), this);
    sweep = vertx.setPeriodic(SWEEP_MS, t -> giveUp(System.currentTimeMillis(), GAVE_UP));
    steps.add(ExecutorSupport.consume(vertx, SqlBus.cancel(engine.driver()), this::onCancel));
    steps.add(ExecutorSupport.consume(vertx, SqlBus.info(engine.driver()), this::onInfo));
    return Future.all(steps);
  }

  @Override
  public Future<?> stop() {
    LocalExecutors.EXECUTORS.unregister(vertx, engine.driver(), this);
    vertx.cancelTimer(sweep);
    giveUp(Long.MAX_VALUE, "the executor stopped before it answered (the gateway is shutting down)");
    return Future.join(connections.values().stream().map(EngineConnection::close).toList());
  }

  /** The connection objects, for tests that look inside one engine (worker PIDs, pools). */
  public EngineConnection connection(String connectionId) {
    return connections.get(connectionId);
  }

  private void onExecute(Message<Object> msg) {
    Object body = msg.body();
    ExecutorSupport.attempt(() -> execute(body instanceof SqlRequest r ? r
            : SqlRequest.fromJson(body instanceof JsonObject j ? j : new JsonObject())))
        // the result is built for this reply alone: no copy on the way to the tool
        .onSuccess(result -> msg.reply(result, ByReferenceJson.options()))
        .onFailure(err -> SqlError.from(err).failReply(msg));
  }

  private Future<JsonObject> execute(SqlRequest req) {
    return execute(req, false);
  }

  /**
   * How often requests handed over directly are checked against their callers' patience. A
   * backstop only: the connection's deadline answers a slow statement long before it.
   */
  static final long SWEEP_MS = 1_000;

  /** A request from this node, handed over without a bus message ({@link LocalExecutors}). */
  void submit(SqlRequest req, Promise<JsonObject> answer, long timeoutMs) {
    context.runOnContext(v -> {
      handedOver.add(answer, timeoutMs);
      ExecutorSupport.attempt(() -> execute(req)).onComplete(ar -> {
        if (handedOver.remove(answer)) {
          if (ar.succeeded()) {
            answer.tryComplete(ar.result());
          } else {
            answer.tryFail(SqlError.from(ar.cause()));
          }
        }
      });
    });
  }

  /** What a caller is told when the executor kept its request past its patience. */
  static final String GAVE_UP = "the gateway gave up waiting for the executor";

  /** Fails the handed-over requests whose callers would have stopped waiting by {@code now}. */
  private void giveUp(long now, String why) {
    handedOver.failOverdue(now, () -> new SqlError(ErrorType.TIMEOUT, why));
  }

  private Future<JsonObject> execute(SqlRequest req, boolean guardOff) {
    long received = System.nanoTime();
    ConnectionConfig cfg = config(req.connectionId());
    String queryId = req.queryId() == null || req.queryId().isBlank() ? UUID.randomUUID().toString() : req.queryId();
    if (req.analysis() == null) {
      // a request that brings its analysis was validated by its sender, which reports that stage
      progress(req, queryId, "validating", null);
    }
    if (req.sql() == null || req.sql().isBlank()) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "sql is required");
    }
    if (running.containsKey(queryId)) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "queryId '" + queryId + "' is already running");
    }
    String analysed = req.params() != null ? TemplateSql.forGuard(req.sql()) : req.sql();
    Future<AnalysedStatement> analysis = req.analysis() != null && req.analysis().dialect() == engine.dialect()
        ? Future.succeededFuture(req.analysis()) : SqlAnalyzer.analyse(vertx, engine.dialect(), analysed);
    return analysis.compose(a -> {
      String text = guardOff ? req.sql() : statementToRun(req, a);
      EngineConnection conn = connections.get(cfg.id());
      EngineConnection.Job job = new EngineConnection.Job(queryId, req.mode(), a.kind(), text, req.params(),
          maxRows(req, cfg), timeoutMs(req, cfg), req.analyze(), req.floatDigits() == null ? 12 : req.floatDigits(),
          rows -> progress(req, queryId, "fetching", rows),
          new Caller(req.principal(), req.sessionId(), req.mode().wireName() + " " + a.fingerprint()),
          guardOff ? null : a);
      running.put(queryId, conn);
      progress(req, queryId, "executing", null);
      long started = System.nanoTime();
      return conn.run(job)
          .recover(err -> explain(conn, SqlError.from(err), text))
          .map(r -> r.put("queryId", queryId)
              .put("executionTimeMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started))
              .put("timings", timings(r.getJsonObject("timings"), received, started)))
          // the wait for a connection or worker, in the result so an agent sees why a call was slow
          .map(r -> r.put("queuedMs", Math.round(r.getJsonObject("timings").getDouble("poolWaitMs"))))
          .onComplete(ar -> running.remove(queryId));
    });
  }

  /**
   * Where the time went, for trace spans (see {@link SqlBus}): analysis and guard until the job
   * started, the wait for a connection or worker (the engine connection reports it), the engine.
   */
  private static JsonObject timings(JsonObject fromEngine, long received, long started) {
    double wait = fromEngine == null ? 0 : fromEngine.getDouble("poolWaitMs", 0.0);
    double total = (System.nanoTime() - started) / 1e6;
    return JsonFields.object(4).put("analysisMs", (started - received) / 1e6).put("poolWaitMs", wait)
        .put("engineMs", Math.max(0, total - wait));
  }

  /** The single statement the guard lets through for this request's mode; throws the refusal. */
  private String statementToRun(SqlRequest req, AnalysedStatement a) {
    if (req.mode() == SqlRequest.Mode.WRITE) {
      return WriteGuard.check(a).sql();
    }
    Refusal r = ReadGuard.check(a);
    if (r != null) {
      throw r.toError();
    }
    if (req.mode() != SqlRequest.Mode.QUERY && a.kind() != StatementKind.QUERY) {
      throw Refusal.of("not_a_query", req.mode().wireName() + " takes a query (SELECT, WITH, VALUES, TABLE); got "
          + a.kind().name().toLowerCase(Locale.ROOT), req.mode() == SqlRequest.Mode.EXPLAIN
          ? "Send the statement itself, without EXPLAIN." : "Compare two SELECT statements.").toError();
    }
    // an approved query runs its template text: the placeholders are bound by the engine
    return req.params() != null ? TemplateSql.trimmed(req.sql()) : a.text();
  }

  /** Adds what an agent needs to fix an engine error: a position, similar names. */
  private Future<JsonObject> explain(EngineConnection conn, SqlError e, String sql) {
    if (e.type() == ErrorType.SYNTAX_ERROR && !e.details().containsKey("position")) {
      // MySQL reports "near '<rest of statement>' at line N" instead of a position.
      String near = nameIn(e.getMessage(), NEAR);
      int at = near == null || near.isEmpty() ? -1 : sql.indexOf(near);
      e.with("position", near == null ? null : at >= 0 ? Integer.valueOf(at + 1) : near.isEmpty() ? sql.length() + 1 : null);
    }
    boolean columns = e.type() == ErrorType.COLUMN_NOT_FOUND;
    String missing = e.details().getString("name");
    if (!(columns || e.type() == ErrorType.TABLE_NOT_FOUND) || missing == null || e.details().containsKey("suggestions")) {
      return Future.failedFuture(e);
    }
    int dot = missing.lastIndexOf('.');
    // MySQL names the table db-qualified even when the statement did not; echo the agent's form.
    String qualifier = dot > 0 && sql.toLowerCase(Locale.ROOT)
        .contains(missing.substring(0, dot + 1).toLowerCase(Locale.ROOT)) ? missing.substring(0, dot) : null;
    String bare = dot > 0 ? missing.substring(dot + 1) : missing;
    // Suggestions are a courtesy: a slow or failing look-up must not hide the real error.
    return conn.knownNames(columns, columns ? null : qualifier)
        .timeout(2, TimeUnit.SECONDS)
        .map(names -> NameSuggester.similar(bare, names).stream()
            .map(n -> qualifier == null || columns ? n : qualifier + "." + n).toList())
        .otherwise(List.of())
        .compose(list -> {
          if (!list.isEmpty()) {
            e.with("suggestions", SqlError.suggestions(list, (columns ? "similar column" : "similar table")
                + " name in the live schema"));
          }
          return Future.failedFuture(e);
        });
  }

  private Future<JsonObject> onCancel(JsonObject req) {
    String queryId = req.getString("queryId");
    EngineConnection conn = queryId == null ? null : running.get(queryId);
    boolean cancelled = conn != null && conn.cancel(queryId);
    return Future.succeededFuture(new JsonObject().put("queryId", queryId).put("cancelled", cancelled));
  }

  private Future<JsonObject> onInfo(JsonObject req) {
    ConnectionConfig cfg = config(req.getString("connectionId"));
    return connections.get(cfg.id()).info().map(o -> o.put("connectionId", cfg.id()));
  }

  private ConnectionConfig config(String connectionId) {
    ConnectionConfig cfg = connectionId == null ? null : configs.get(connectionId);
    if (cfg == null) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "unknown connectionId '" + connectionId + "' for "
          + engine.driver().wireName() + "; known: " + String.join(", ", configs.keySet()))
          .with("known", new JsonArray(new ArrayList<>(configs.keySet())));
    }
    return cfg;
  }

  /** maxRows clamped to [1, the connection's ceiling]. */
  private static int maxRows(SqlRequest req, ConnectionConfig cfg) {
    int asked = req.maxRows() == null ? cfg.maxRowsDefault() : req.maxRows();
    return Math.max(1, Math.min(Math.max(1, cfg.maxRowsCeiling()), asked));
  }

  /** The smaller of the request's timeoutMs and the connection's deadline. */
  private static long timeoutMs(SqlRequest req, ConnectionConfig cfg) {
    Long asked = req.timeoutMs();
    return asked != null && asked > 0 ? Math.min(asked, cfg.queryTimeoutMs()) : cfg.queryTimeoutMs();
  }

  private void progress(SqlRequest req, String queryId, String stage, Integer rows) {
    if (req.progressAddress() != null) {
      ExecutorSupport.progress(vertx, req.progressAddress(), queryId, stage, rows);
    }
  }

  /**
   * Runs a request WITHOUT the read or write guard, on this verticle's context: only for tests
   * proving that the engine's own walls (single-statement protocol paths, read-only sessions,
   * session reset) hold on their own. The bus path always guards.
   */
  Future<JsonObject> runUnguarded(SqlRequest req) {
    Promise<JsonObject> p = Promise.promise();
    context.runOnContext(v -> ExecutorSupport.attempt(() -> execute(req, true)).onComplete(p));
    return p.future();
  }

  Future<JsonObject> runUnguarded(String connectionId, String sql) {
    return runUnguarded(SqlRequest.query(connectionId, sql, null, 100));
  }

  /** Pulls a quoted or bare identifier out of an engine message, e.g. {@code relation "x" does not exist}. */
  public static String nameIn(String message, Pattern pattern) {
    Matcher m = pattern.matcher(message == null ? "" : message);
    return m.find() ? m.group(1) : null;
  }
}
