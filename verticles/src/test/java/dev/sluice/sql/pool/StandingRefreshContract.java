package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table's neutral standing, used by reads, is asked again on the side pool before it expires
 * (the pool's timer), so the reads never take the reset and the look-up in their own flight; and
 * what the catalog says then counts: a table replaced by a view is no longer neutral. Each engine
 * that keeps standings runs this on its real server.
 */
public abstract class StandingRefreshContract {

  protected final String table = TestDatabases.uniqueName("refresh");
  protected Vertx vertx;
  protected Pool admin;
  private PooledEngine adapter;

  /** Skips or fails when the server is not there. */
  protected abstract void requireServer();

  /** A pool on the test database with the superuser, for the test's own set-up. */
  protected abstract Pool admin();

  /** The engine's adapter on the test database, not started. */
  protected abstract PooledEngine adapter();

  /** Creates {@link #table} with the rows 1, 2 and 3. */
  protected abstract void createTable() throws Exception;

  /** Drops {@link #table} and creates a view of that name with three rows. */
  protected abstract void replaceWithView() throws Exception;

  protected abstract AnalysedStatement analyse(String sql);

  @BeforeEach
  void start() throws Exception {
    requireServer();
    vertx = Vertx.vertx();
    admin = admin();
    createTable();
    adapter = adapter();
    adapter.start().await(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    if (adapter != null) {
      adapter.close().await(10, TimeUnit.SECONDS);
    }
    if (admin != null) {
      for (String drop : new String[] {"DROP VIEW IF EXISTS ", "DROP TABLE IF EXISTS "}) {
        admin.query(drop + table).execute().otherwiseEmpty().await(10, TimeUnit.SECONDS);
      }
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void aStandingDueIsAskedAgainBeforeItExpiresAndAViewInsteadOfTheTableIsNoticed() throws Exception {
    RelationStandings standings = adapter.standings();
    AnalysedStatement read = analyse("SELECT count(*) FROM " + table);
    long learnedAt = System.currentTimeMillis() - RelationStandings.REFRESH_AFTER_MS - 1;
    standings.learned(table, true, learnedAt);
    assertEquals(3L, readOnce(read));
    assertTrue(until(() -> standings.neutral(read, learnedAt + RelationStandings.TTL_MS + 1_000)),
        "the standing was asked again before it expired");

    standings.learned(table, true, learnedAt);
    replaceWithView();
    assertEquals(3L, readOnce(read));
    assertTrue(until(() -> !standings.neutral(read, System.currentTimeMillis())), "a view is not neutral");
  }

  private static boolean until(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (!condition.getAsBoolean()) {
      if (System.currentTimeMillis() > deadline) {
        return false;
      }
      Thread.sleep(20);
    }
    return true;
  }

  /** One read on a bare lease of the adapter's own pool, as the executor runs a small read. */
  private long readOnce(AnalysedStatement read) throws Exception {
    CompletableFuture<Long> count = new CompletableFuture<>();
    vertx.getOrCreateContext().runOnContext(v -> adapter.leaseBare(5_000)
        .compose(lease -> adapter.readInOneTrip(lease, "SELECT count(*) FROM " + table, 10, read)
            .eventually(() -> adapter.release(lease)))
        .onSuccess(rows -> count.complete(rows.rows().isEmpty() ? -1L : rows.rows().get(0).getLong(0)))
        .onFailure(count::completeExceptionally));
    return count.get(10, TimeUnit.SECONDS);
  }
}
