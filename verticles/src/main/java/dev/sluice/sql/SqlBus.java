package dev.sluice.sql;

import io.vertx.core.json.JsonObject;

/**
 * The event-bus contract of the SQL executors: one executor verticle per {@link Driver}, each
 * serving every configured connection of that driver. An execute request is a {@link SqlRequest}
 * (node-local, carrying its statement's analysis) or the same request as JSON (below); replies and
 * the other addresses are {@link JsonObject}, so the contract works unchanged on a clustered bus.
 *
 * <h2>execute — {@link #execute(Driver)}</h2>
 *
 * Request: {@code {connectionId, queryId, sql, maxRows, timeoutMs?, mode: "query"|"explain"|
 * "checksum"|"write", analyze?: bool, params?: {name: value}, floatDigits?, progressAddress?}}.
 * {@code params}: an approved query's values for its {@code #{name}} placeholders, bound by the
 * driver. {@code checksum}: the whole result hashed (see RowChecksum), reply {@code {rowCount,
 * columnCount, checksum, sampleComplete, sample[], headers}}. {@code write}: a gated write under
 * the write guard in a READ WRITE transaction, reply adds {@code rowsAffected}. The executor takes the
 * request's analysis (or analyses the text), runs the read or write guard on it, then the engine,
 * under the connection's deadline (the smaller of {@code timeoutMs} and {@code
 * query_timeout_ms}). Reply for {@code query}: {@code {queryId, headers[], headerTypes[], rows[][],
 * rowCount, truncated, executionTimeMs}}; for {@code explain}: {@code {queryId, format, plan[],
 * planJson?, estimatedRows?, estimatedCost?, executionTimeMs}}. Every successful reply also carries
 * {@code timings: {analysisMs, poolWaitMs, engineMs}} (fractional milliseconds, end to end from the
 * request's arrival: the read-only guard, the wait for a pooled connection or SQLite worker, the
 * engine's work until the result was complete); the gateway turns them into trace spans and takes
 * them out of what tools see. Failure: {@link SqlError} (code = {@link ErrorType#code()}, message =
 * JSON body).
 *
 * <p>While running, the executor may send progress to {@code progressAddress}: {@code {queryId,
 * stage: "validating"|"executing"|"fetching", rows?, message}}; "validating" only when the
 * executor analyses the statement itself (a request carrying its analysis was validated by its
 * sender).
 *
 * <h2>cancel — {@link #cancel(Driver)}</h2>
 *
 * Request {@code {queryId}}; reply {@code {queryId, cancelled: bool}}. The in-flight execute then
 * fails with {@link ErrorType#CANCELLED}; the engine's work is stopped (PG cancel request, MySQL
 * KILL QUERY, SQLite worker killed).
 *
 * <h2>info — {@link #info(Driver)}</h2>
 *
 * Request {@code {connectionId}}; reply {@code {connectionId, status: "up"|"down"|"starting",
 * serverVersion?, flavour?, readOnly: bool, pool: {size, inUse, waiting}, error?}}.
 */
public final class SqlBus {

  private SqlBus() {}

  public static String execute(Driver driver) {
    return "sluice.sql." + driver.wireName() + ".execute";
  }

  public static String cancel(Driver driver) {
    return "sluice.sql." + driver.wireName() + ".cancel";
  }

  public static String info(Driver driver) {
    return "sluice.sql." + driver.wireName() + ".info";
  }

  /** Extra time the caller waits past the deadline for the executor's own timeout error. */
  public static final long REPLY_GRACE_MS = 5_000;

  /** A query request as JSON, for callers without an analysis (the catalog scanner, tests, scripts). */
  public static JsonObject queryRequest(String connectionId, String queryId, String sql, int maxRows) {
    return new JsonObject()
        .put("connectionId", connectionId)
        .put("queryId", queryId)
        .put("sql", sql)
        .put("maxRows", maxRows)
        .put("mode", "query");
  }

  /** The canonical deadline message shared by every engine. */
  public static String deadlineMessage(long timeoutMs) {
    long seconds = Math.max(1, Math.round(timeoutMs / 1000.0));
    return "query exceeded " + seconds + "s";
  }

  public static SqlError deadlineError(long timeoutMs) {
    return new SqlError(ErrorType.TIMEOUT, deadlineMessage(timeoutMs))
        .with("timeoutMs", timeoutMs);
  }
}
