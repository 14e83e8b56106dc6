package dev.sluice.sql;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.pool.Caller;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * One configured connection as the executor flow sees it, whatever the engine: run a statement
 * the guard accepted, stop it, report status. PostgreSQL and MySQL/MariaDB implement it on a
 * reactive pool ({@link dev.sluice.sql.pool.PooledExecution}), SQLite on worker processes.
 */
public interface EngineConnection {

  Future<Void> start();

  Future<Void> close();

  /**
   * Runs one statement under the job's deadline. Fails with a {@link SqlError}; engine errors are
   * already mapped (the flow adds name suggestions).
   */
  Future<JsonObject> run(Job job);

  /** Stops the job if it runs here; true when it did. The job then fails with {@code cancelled}. */
  boolean cancel(String queryId);

  /** {@code {status, serverVersion?, flavour?, readOnly, pool, error?}}. */
  Future<JsonObject> info();

  /** Table names ({@code columns=false}) or column names of the live schema, for suggestions. */
  default Future<List<String>> knownNames(boolean columns, String qualifier) {
    return Future.succeededFuture(List.of());
  }

  /**
   * One guarded statement to run.
   *
   * @param kind what the analysis found the statement to be
   * @param sql the single statement the analysis produced (an approved query: its template text)
   * @param params an approved query's values for its {@code #{name}} placeholders, or null
   * @param onRows called with the row count as rows stream in (progress)
   * @param caller whose call it is, for the order of the wait queue
   * @param guarded the analysis the guard passed {@code sql} with; null when the connection runs
   *     unguarded (then nothing may be concluded from it)
   */
  record Job(String queryId, SqlRequest.Mode mode, StatementKind kind, String sql, JsonObject params, int maxRows,
      long timeoutMs, boolean analyze, int floatDigits, IntConsumer onRows, Caller caller, AnalysedStatement guarded) {}
}
