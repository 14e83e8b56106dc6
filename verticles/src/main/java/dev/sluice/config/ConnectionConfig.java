package dev.sluice.config;

import dev.sluice.sql.Driver;
import io.vertx.core.json.JsonObject;

/**
 * One configured database connection, already validated by {@link ConfigLoader}.
 *
 * @param id stable name agents pass as {@code connectionId}
 * @param url {@code postgresql://user:pass@host:port/db} or {@code mysql://...}; null for SQLite
 * @param path SQLite database file; null for the network drivers
 * @param user overrides the URL's user when set
 * @param password overrides the URL's password when set (after {@code ${ENV}} expansion; never
 *     logged)
 * @param poolSize connections (or SQLite worker processes) kept for this connection
 * @param maxWaitQueue calls allowed to wait for a pooled connection before {@code busy}
 * @param queryTimeoutMs the deadline of every query on this connection
 * @param maxRowsDefault rows returned when the call names no maxRows
 * @param maxRowsCeiling the largest maxRows a call may ask for
 * @param schemas the schemas (PostgreSQL) or databases (MySQL) the catalog scan covers; empty
 *     means the default: every non-system schema for PostgreSQL, the URL's database for MySQL,
 *     {@code main} for SQLite
 * @param queue how waiting calls are ordered (fair sharing, weights, short-call reserve)
 */
public record ConnectionConfig(
    String id,
    Driver driver,
    String url,
    String path,
    String user,
    String password,
    String description,
    int poolSize,
    int maxWaitQueue,
    long queryTimeoutMs,
    int maxRowsDefault,
    int maxRowsCeiling,
    java.util.List<String> schemas,
    QueuePolicy queue) {

  public ConnectionConfig {
    schemas = schemas == null ? java.util.List.of() : java.util.List.copyOf(schemas);
    queue = queue == null ? QueuePolicy.DEFAULT : queue;
  }

  /** A connection with the default (fair) queue. */
  public ConnectionConfig(String id, Driver driver, String url, String path, String user, String password,
      String description, int poolSize, int maxWaitQueue, long queryTimeoutMs, int maxRowsDefault,
      int maxRowsCeiling, java.util.List<String> schemas) {
    this(id, driver, url, path, user, password, description, poolSize, maxWaitQueue, queryTimeoutMs,
        maxRowsDefault, maxRowsCeiling, schemas, QueuePolicy.DEFAULT);
  }

  /** A connection whose catalog scan covers the default schemas. */
  public ConnectionConfig(String id, Driver driver, String url, String path, String user, String password,
      String description, int poolSize, int maxWaitQueue, long queryTimeoutMs, int maxRowsDefault,
      int maxRowsCeiling) {
    this(id, driver, url, path, user, password, description, poolSize, maxWaitQueue, queryTimeoutMs,
        maxRowsDefault, maxRowsCeiling, java.util.List.of());
  }

  public static final int DEFAULT_POOL_SIZE = 4;
  /** Waiting costs a promise and a request; the deadline, not the queue, bounds how long. */
  public static final int DEFAULT_MAX_WAIT_QUEUE = 1_024;
  public static final long DEFAULT_QUERY_TIMEOUT_MS = 30_000;
  public static final int DEFAULT_MAX_ROWS = 1_000;
  public static final int DEFAULT_MAX_ROWS_CEILING = 10_000;

  /** Bus form; includes the password because executors need it — never log this object. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("id", id)
        .put("driver", driver.wireName())
        .put("url", url)
        .put("path", path)
        .put("user", user)
        .put("password", password)
        .put("description", description)
        .put("pool_size", poolSize)
        .put("max_wait_queue", maxWaitQueue)
        .put("query_timeout_ms", queryTimeoutMs)
        .put("max_rows", maxRowsDefault)
        .put("max_rows_ceiling", maxRowsCeiling)
        .put("schemas", new io.vertx.core.json.JsonArray(schemas))
        .put("queue", queue.toJson());
  }

  public static ConnectionConfig fromJson(JsonObject j) {
    return new ConnectionConfig(
        j.getString("id"),
        Driver.parse(j.getString("driver")),
        j.getString("url"),
        j.getString("path"),
        j.getString("user"),
        j.getString("password"),
        j.getString("description"),
        j.getInteger("pool_size", DEFAULT_POOL_SIZE),
        j.getInteger("max_wait_queue", DEFAULT_MAX_WAIT_QUEUE),
        j.getLong("query_timeout_ms", DEFAULT_QUERY_TIMEOUT_MS),
        j.getInteger("max_rows", DEFAULT_MAX_ROWS),
        j.getInteger("max_rows_ceiling", DEFAULT_MAX_ROWS_CEILING),
        j.getJsonArray("schemas", new io.vertx.core.json.JsonArray()).stream().map(String::valueOf).toList(),
        QueuePolicy.fromJson(j.getJsonObject("queue")));
  }

  /** Same connection with another deadline; tests use it to make runaways short. */
  public ConnectionConfig withQueryTimeoutMs(long ms) {
    return new ConnectionConfig(id, driver, url, path, user, password, description, poolSize,
        maxWaitQueue, ms, maxRowsDefault, maxRowsCeiling, schemas, queue);
  }

  /** Same connection with its catalog scan limited to {@code names}. */
  public ConnectionConfig withSchemas(java.util.List<String> names) {
    return new ConnectionConfig(id, driver, url, path, user, password, description, poolSize,
        maxWaitQueue, queryTimeoutMs, maxRowsDefault, maxRowsCeiling, names, queue);
  }

  /** Same connection with another wait-queue policy. */
  public ConnectionConfig withQueue(QueuePolicy q) {
    return new ConnectionConfig(id, driver, url, path, user, password, description, poolSize,
        maxWaitQueue, queryTimeoutMs, maxRowsDefault, maxRowsCeiling, schemas, q);
  }

  /** A string safe for logs: no password, no URL userinfo. */
  @Override
  public String toString() {
    return "ConnectionConfig[id=" + id + ", driver=" + driver.wireName() + "]";
  }
}
