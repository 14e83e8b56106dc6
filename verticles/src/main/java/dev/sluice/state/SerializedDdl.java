package dev.sluice.state;

import io.vertx.core.Future;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import java.util.List;

/**
 * Runs start-up DDL so that nodes starting together cannot trip over each other. PostgreSQL's
 * {@code CREATE ... IF NOT EXISTS} is not safe under concurrency: two sessions can both see the
 * object missing and the loser fails on the catalog's unique index (23505). A transaction-scoped
 * advisory lock keyed on the object's name makes the second node wait for the first to commit,
 * after which its {@code IF NOT EXISTS} sees the object and does nothing. Retrying instead only
 * shrinks the window: six nodes racing over three objects still lost three retries in CI.
 */
public final class SerializedDdl {

  private SerializedDdl() {
  }

  /** Runs {@code statements} in one transaction holding the advisory lock named {@code lockName}. */
  public static Future<Void> run(Pool pool, String lockName, List<String> statements) {
    return pool.withTransaction(conn -> conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1))")
        .execute(Tuple.of("sluice:" + lockName))
        .compose(r -> runAll(conn, statements, 0)));
  }

  private static Future<Void> runAll(SqlConnection conn, List<String> statements, int next) {
    if (next == statements.size()) {
      return Future.succeededFuture();
    }
    return conn.query(statements.get(next)).execute().compose(r -> runAll(conn, statements, next + 1));
  }
}
