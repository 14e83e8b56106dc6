package dev.sluice.sql;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.guard.ReadOnlyGuard;
import dev.sluice.sql.guard.WriteGuard;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.PreparedStatement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The executor flow shared by the network engines: serves {@link SqlBus#execute}, {@link
 * SqlBus#cancel} and {@link SqlBus#info} for every connection of one {@link Driver}. Per execute:
 * validate, guard, lease a read-only deadline-bound session, stream at most {@code maxRows} rows,
 * roll back. The deadline is enforced twice: by the engine and by a gateway timer that cancels the
 * backend; both end in the same {@link SqlBus#deadlineError}, delivered once.
 *
 * <p>Deploy exactly one instance per driver: in-flight queries (for cancel) and pools live in the
 * instance, and the bus would round-robin between instances.
 */
public abstract class SqlExecutorVerticle extends VerticleBase {

  /** The gateway timer fires this long after the engine's own deadline should have. */
  public static final long DEADLINE_MARGIN_MS = 250;

  private static final Pattern NEAR = Pattern.compile("near '(.*)' at line \\d+", Pattern.DOTALL);

  private final Driver driver;
  private final Map<String, ConnectionConfig> configs = new LinkedHashMap<>();
  private final Map<String, EngineAdapter> engines = new LinkedHashMap<>();
  private final Map<String, InFlightQuery> inFlight = new HashMap<>();

  protected SqlExecutorVerticle(Driver driver, List<ConnectionConfig> connections) {
    this.driver = driver;
    for (ConnectionConfig c : connections) {
      if (c.driver() != driver) {
        throw new IllegalArgumentException(c + " is not a " + driver.wireName() + " connection");
      }
      configs.put(c.id(), c);
    }
  }

  /** The engine adapter for one connection. */
  protected abstract EngineAdapter adapter(ConnectionConfig cfg);

  @Override
  public Future<?> start() {
    List<Future<?>> steps = new ArrayList<>();
    configs.values().forEach(c -> {
      EngineAdapter e = adapter(c);
      engines.put(c.id(), e);
      steps.add(e.start());
    });
    steps.add(consume(SqlBus.execute(driver), this::onExecute));
    steps.add(consume(SqlBus.cancel(driver), this::onCancel));
    steps.add(consume(SqlBus.info(driver), this::onInfo));
    return Future.all(steps);
  }

  @Override
  public Future<?> stop() {
    return Future.join(engines.values().stream().map(EngineAdapter::close).toList());
  }

  private Future<Void> consume(String address, java.util.function.Function<JsonObject, Future<JsonObject>> handler) {
    return ExecutorSupport.consume(vertx, address, handler);
  }

  private Future<JsonObject> onExecute(JsonObject req) {
    long received = System.nanoTime();
    String connectionId = req.getString("connectionId");
    ConnectionConfig cfg = config(connectionId);
    String queryId = ExecutorSupport.queryId(req);
    progress(req, queryId, "validating", null);
    String sql = req.getString("sql");
    if (sql == null || sql.isBlank()) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "sql is required");
    }
    if ("write".equals(req.getString("mode"))) {
      // a gated write (sql_write): its own guard; the gateway checked who may write where
      return attempt(() -> run(cfg, queryId, WriteGuard.check(Dialect.of(driver), sql).sql(), req, received));
    }
    JsonObject params = req.getJsonObject("params");
    if (params != null) {
      // an approved query: the guard reads it with its #{name} placeholders as NULLs; the template
      // text itself runs, with the values bound by SQL Client Templates
      return ReadOnlyGuard.check(vertx, Dialect.of(driver), TemplateSql.forGuard(sql)).compose(verdict ->
          verdict.allowed() ? attempt(() -> run(cfg, queryId, TemplateSql.trimmed(sql), req, received))
              : Future.failedFuture(verdict.toError()));
    }
    return ReadOnlyGuard.check(vertx, Dialect.of(driver), sql).compose(verdict -> verdict.allowed()
        ? attempt(() -> run(cfg, queryId, verdict.sql(), req, received)) : Future.failedFuture(verdict.toError()));
  }

  /**
   * Runs {@code sql} WITHOUT the read-only guard, on this verticle's context. Only for tests of the
   * engine's own read-only wall; the bus path always guards first.
   */
  Future<JsonObject> runUnguarded(String connectionId, String sql) {
    Promise<JsonObject> p = Promise.promise();
    context.runOnContext(v -> attempt(() -> run(config(connectionId), UUID.randomUUID().toString(), sql,
        new JsonObject().put("mode", "query"), System.nanoTime())).onComplete(p));
    return p.future();
  }

  private static Future<JsonObject> read(EngineAdapter engine, EngineAdapter.Lease lease, String sql,
      ResultCollector collector, JsonObject params) {
    if (params != null) {
      // typed binding by SQL Client Templates: #{name} becomes $n / ?, the value is never spliced
      return lease.opened().compose(v -> io.vertx.sqlclient.templates.SqlTemplate.forQuery(lease.conn(), sql)
          .execute(params.getMap())).map(collector::collect);
    }
    if (!engine.cursorReadable(sql)) {
      return lease.opened().compose(v -> lease.conn().query(sql).execute()).map(collector::collect);
    }
    // Preparing executes nothing, so it may ride behind a transaction start still on the wire.
    Future<PreparedStatement> prepared = lease.conn().prepare(sql);
    return lease.opened()
        .transform(open -> open.succeeded() ? prepared
            : prepared.compose(PreparedStatement::close).transform(x -> Future.failedFuture(open.cause())))
        .compose(ps -> collector.drain(ps.cursor())
            // Server-side statements outlive the lease (PG session, MySQL max_prepared_stmt_count).
            // Closing one also closes its cursor. Not awaited: the release's ROLLBACK queues
            // behind it on the same connection, so both share one round trip.
            .andThen(ar -> ps.close()));
  }

  private ConnectionConfig config(String connectionId) {
    return ExecutorSupport.config(configs, driver, connectionId);
  }

  private Future<JsonObject> run(ConnectionConfig cfg, String queryId, String sql, JsonObject req, long received) {
    String mode = req.getString("mode", "query");
    if (!mode.equals("query") && !mode.equals("explain") && !mode.equals("write") && !mode.equals("checksum")) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "mode must be \"query\", \"explain\" or \"write\", got \""
          + mode + "\"");
    }
    if (inFlight.containsKey(queryId)) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "queryId '" + queryId + "' is already running");
    }
    int maxRows = ExecutorSupport.maxRows(req, cfg);
    long timeoutMs = ExecutorSupport.timeoutMs(req, cfg);
    EngineAdapter engine = engines.get(cfg.id());
    InFlightQuery q = new InFlightQuery(queryId, engine);
    inFlight.put(queryId, q);
    long started = System.nanoTime();
    progress(req, queryId, "executing", null);

    // The gateway's own deadline: covers the pool queue and an engine that ignores its timeout.
    long timer = vertx.setTimer(timeoutMs + DEADLINE_MARGIN_MS, id -> stop(q, InFlightQuery.Stop.DEADLINE,
        SqlBus.deadlineError(timeoutMs)));

    (mode.equals("write") ? engine.leaseWrite(timeoutMs) : engine.lease(timeoutMs))
        .compose(lease -> {
          if (q.stop != null) {
            return engine.release(lease).compose(v -> Future.failedFuture(stopError(q, timeoutMs)));
          }
          q.lease = lease;
          long leased = System.nanoTime();
          Future<JsonObject> work = mode.equals("write")
              ? lease.opened().compose(v -> write(engine, lease, sql, new ResultCollector(engine, maxRows, rows -> { })))
              : mode.equals("explain")
              ? lease.opened().compose(v -> explain(engine, lease, sql, req.getBoolean("analyze", false)))
              : read(engine, lease, sql, new ResultCollector(engine, maxRows,
                  rows -> progress(req, queryId, "fetching", rows),
                  mode.equals("checksum") ? new RowChecksum(req.getInteger("floatDigits", 12)) : null),
                  req.getJsonObject("params"));
          // timings: the gateway turns them into trace spans (see SqlBus)
          work = work.map(r -> r.put("timings", new JsonObject().put("analysisMs", (started - received) / 1e6)
              .put("poolWaitMs", (leased - started) / 1e6).put("engineMs", (System.nanoTime() - leased) / 1e6)));
          return work.eventually(() -> {
            // Forget the lease first so no new cancel targets it, and let a cancel already on its
            // way land before the connection goes back: a PG cancel request arriving late would
            // otherwise stop the next caller's statement on the same backend.
            q.lease = null;
            Future<Void> landed = q.cancelSent == null ? Future.succeededFuture()
                : q.cancelSent.timeout(2, TimeUnit.SECONDS).otherwiseEmpty();
            return landed.compose(v -> engine.release(lease));
          });
        })
        .recover(err -> failure(engine, q, err, sql, timeoutMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)))
        .onComplete(ar -> {
          vertx.cancelTimer(timer);
          inFlight.remove(queryId);
          if (ar.succeeded()) {
            q.reply.tryComplete(ar.result().put("queryId", queryId)
                .put("executionTimeMs", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)));
          } else {
            q.reply.tryFail(ar.cause());
          }
        });
    return q.reply.future();
  }

  /** One write in its READ WRITE transaction: rows affected, RETURNING rows (capped), then COMMIT. */
  private static Future<JsonObject> write(EngineAdapter engine, EngineAdapter.Lease lease, String sql,
      ResultCollector collector) {
    return lease.conn().query(sql).execute().compose(rs -> {
      JsonObject out = collector.collect(rs).put("rowsAffected", rs.rowCount());
      return lease.conn().query("COMMIT").execute().map(x -> out);
    });
  }

  private Future<JsonObject> explain(EngineAdapter engine, EngineAdapter.Lease lease, String sql, boolean analyze) {
    return lease.conn().query(engine.explainSql(sql, analyze)).execute().map(rs -> {
      List<io.vertx.sqlclient.Row> rows = new ArrayList<>();
      rs.forEach(rows::add);
      return engine.renderPlan(rows);
    });
  }

  /** Stops a running query from outside; the reply fails with {@code error} once the engine was told. */
  private Future<Void> stop(InFlightQuery q, InFlightQuery.Stop why, SqlError error) {
    if (q.stop == null) {
      q.stop = why;
    }
    Future<Void> told = q.lease == null ? Future.succeededFuture() : q.engine.cancel(q.lease).otherwiseEmpty();
    q.cancelSent = told;
    if (why == InFlightQuery.Stop.DEADLINE) {
      // The deadline answer must not wait for a side connection; the backend stops on its own time.
      q.reply.tryFail(error);
    }
    return told.onComplete(ar -> q.reply.tryFail(error));
  }

  private SqlError stopError(InFlightQuery q, long timeoutMs) {
    return q.stop == InFlightQuery.Stop.CANCELLED
        ? new SqlError(ErrorType.CANCELLED, "query " + q.queryId + " was cancelled")
        : SqlBus.deadlineError(timeoutMs);
  }

  private Future<JsonObject> failure(EngineAdapter engine, InFlightQuery q, Throwable err, String sql,
      long timeoutMs, long elapsedMs) {
    if (q.stop != null || engine.isServerDeadline(err, elapsedMs, timeoutMs)) {
      if (q.stop == null) {
        q.stop = InFlightQuery.Stop.DEADLINE;
      }
      return Future.failedFuture(stopError(q, timeoutMs));
    }
    SqlError e = err instanceof SqlError se ? se : engine.mapError(err);
    if (e.type() == ErrorType.SYNTAX_ERROR && !e.details().containsKey("position")) {
      // MySQL reports "near '<rest of statement>' at line N" instead of a position.
      String near = nameIn(e.getMessage(), NEAR);
      int at = near == null || near.isEmpty() ? -1 : sql.indexOf(near);
      e.with("position", near == null ? null : at >= 0 ? Integer.valueOf(at + 1) : near.isEmpty() ? sql.length() + 1 : null);
    }
    boolean columns = e.type() == ErrorType.COLUMN_NOT_FOUND;
    String missing = e.details().getString("name");
    if (!(columns || e.type() == ErrorType.TABLE_NOT_FOUND) || missing == null) {
      return Future.failedFuture(e);
    }
    int dot = missing.lastIndexOf('.');
    // MySQL names the table db-qualified even when the statement did not; echo the agent's form.
    String qualifier = dot > 0 && sql.toLowerCase(java.util.Locale.ROOT)
        .contains(missing.substring(0, dot + 1).toLowerCase(java.util.Locale.ROOT)) ? missing.substring(0, dot) : null;
    String bare = dot > 0 ? missing.substring(dot + 1) : missing;
    // Suggestions are a courtesy: a slow or failing look-up must not hide the real error.
    return engine.knownNames(columns, columns ? null : qualifier)
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
    InFlightQuery q = queryId == null ? null : inFlight.get(queryId);
    if (q == null || q.stop != null) {
      return Future.succeededFuture(new JsonObject().put("queryId", queryId).put("cancelled", false));
    }
    return stop(q, InFlightQuery.Stop.CANCELLED, new SqlError(ErrorType.CANCELLED, "query " + queryId + " was cancelled"))
        .map(v -> new JsonObject().put("queryId", queryId).put("cancelled", true));
  }

  private Future<JsonObject> onInfo(JsonObject req) {
    ConnectionConfig cfg = config(req.getString("connectionId"));
    EngineAdapter engine = engines.get(cfg.id());
    JsonObject out = new JsonObject().put("connectionId", cfg.id()).put("readOnly", true);
    return engine.probe()
        .map(info -> out.put("status", "up").put("serverVersion", info.version()).put("flavour", info.flavour()))
        .recover(err -> Future.succeededFuture(out.put("status", "down")
            .put("error", engine.mapError(err).getMessage())))
        .map(o -> o.put("pool", engine.poolStats()));
  }

  private void progress(JsonObject req, String queryId, String stage, Integer rows) {
    ExecutorSupport.progress(vertx, req, queryId, stage, rows);
  }

  private static <T> Future<T> attempt(java.util.function.Supplier<Future<T>> s) {
    return ExecutorSupport.attempt(s);
  }

  /** Pulls a quoted or bare identifier out of an engine message, e.g. {@code relation "x" does not exist}. */
  public static String nameIn(String message, Pattern pattern) {
    Matcher m = pattern.matcher(message == null ? "" : message);
    return m.find() ? m.group(1) : null;
  }
}
