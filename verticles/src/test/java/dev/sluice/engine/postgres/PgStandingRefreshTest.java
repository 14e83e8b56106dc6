package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.pool.RelationStandings;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A table's neutral standing, in use by reads, is asked again on the side pool before it expires,
 * so the reads never take the reset and the look-up in their own flight; and what the catalog
 * says then counts: a table replaced by a view is no longer neutral.
 */
class PgStandingRefreshTest {

  private final String table = TestDatabases.uniqueName("refresh");
  private Vertx vertx;
  private Pool admin;
  private PgAdapter adapter;

  @BeforeEach
  void start() throws Exception {
    TestDatabases.requirePostgres();
    vertx = Vertx.vertx();
    admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    admin.query("CREATE TABLE " + table + " AS SELECT g AS id FROM generate_series(1, 3) g").execute()
        .await(10, TimeUnit.SECONDS);
    adapter = new PgAdapter(vertx, new ConnectionConfig("refresh", Driver.POSTGRES,
        TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null, null, 2, 8, 5_000, 100, 10_000));
    adapter.start().await(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    if (adapter != null) {
      adapter.close().await(10, TimeUnit.SECONDS);
    }
    if (admin != null) {
      admin.query("DROP VIEW IF EXISTS " + table).execute().otherwiseEmpty().await(10, TimeUnit.SECONDS);
      admin.query("DROP TABLE IF EXISTS " + table).execute().otherwiseEmpty().await(10, TimeUnit.SECONDS);
    }
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void aStandingDueIsAskedAgainWhileTheReadsGoOnWithoutAReset() throws Exception {
    AnalysedStatement read = SqlAnalyzer.analyseNow(PostgresEngine.INSTANCE.dialect(), "SELECT count(*) FROM " + table);
    long learnedAt = System.currentTimeMillis() - RelationStandings.REFRESH_AFTER_MS - 1;
    adapter.neutralReads.learned(table, true, learnedAt);

    assertEquals(3L, readOnce(read));
    assertTrue(waitForRefresh(read, learnedAt), "the standing was asked again before it expired");
  }

  @Test
  void aTableReplacedByAViewIsNoticedByTheRefresh() throws Exception {
    AnalysedStatement read = SqlAnalyzer.analyseNow(PostgresEngine.INSTANCE.dialect(), "SELECT count(*) FROM " + table);
    long learnedAt = System.currentTimeMillis() - RelationStandings.REFRESH_AFTER_MS - 1;
    adapter.neutralReads.learned(table, true, learnedAt);
    admin.query("DROP TABLE " + table).execute().await(10, TimeUnit.SECONDS);
    admin.query("CREATE VIEW " + table + " AS SELECT g AS id FROM generate_series(1, 3) g").execute()
        .await(10, TimeUnit.SECONDS);

    assertEquals(3L, readOnce(read));
    long deadline = System.currentTimeMillis() + 10_000;
    while (adapter.neutralReads.neutral(read, System.currentTimeMillis()) && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertFalse(adapter.neutralReads.neutral(read, System.currentTimeMillis()), "a view is not neutral");
  }

  /** Whether a look-up answered after {@code learnedAt}: the standing then outlives the old one's TTL. */
  private boolean waitForRefresh(AnalysedStatement read, long learnedAt) throws InterruptedException {
    long deadline = System.currentTimeMillis() + 10_000;
    while (System.currentTimeMillis() < deadline) {
      if (adapter.neutralReads.neutral(read, learnedAt + RelationStandings.TTL_MS + 1_000)) {
        return true;
      }
      Thread.sleep(20);
    }
    return false;
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
