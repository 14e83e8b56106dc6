package dev.sluice.engine.mysql;

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
import io.vertx.mysqlclient.MySQLBuilder;
import io.vertx.sqlclient.Pool;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * MariaDB: a base table's neutral standing in use is asked again on the side pool before it
 * expires, and a table replaced by a view is noticed then (PgStandingRefreshTest on PostgreSQL).
 */
class MySqlStandingRefreshTest {

  private final String table = TestDatabases.uniqueName("refresh");
  private Vertx vertx;
  private Pool admin;
  private MySqlAdapter adapter;

  @BeforeEach
  void start() throws Exception {
    TestDatabases.requireMysql();
    vertx = Vertx.vertx();
    admin = MySQLBuilder.pool().connectingTo(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE)).using(vertx).build();
    admin.query("CREATE TABLE " + table + " (id INT)").execute().await(10, TimeUnit.SECONDS);
    admin.query("INSERT INTO " + table + " VALUES (1), (2), (3)").execute().await(10, TimeUnit.SECONDS);
    adapter = new MySqlAdapter(vertx, new ConnectionConfig("refresh", Driver.MYSQL,
        TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE), null, null, null, null, 2, 8, 5_000, 100, 10_000));
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
  void aStandingDueIsAskedAgainAndAViewInsteadOfTheTableIsNoticed() throws Exception {
    AnalysedStatement read = SqlAnalyzer.analyseNow(MySqlEngine.INSTANCE.dialect(), "SELECT count(*) FROM " + table);
    long learnedAt = System.currentTimeMillis() - RelationStandings.REFRESH_AFTER_MS - 1;
    adapter.neutralReads.learned(table, true, learnedAt);
    assertEquals(3L, readOnce(read));
    assertTrue(until(() -> adapter.neutralReads.neutral(read, learnedAt + RelationStandings.TTL_MS + 1_000)),
        "the standing was asked again before it expired");

    adapter.neutralReads.learned(table, true, learnedAt);
    admin.query("DROP TABLE " + table).execute().await(10, TimeUnit.SECONDS);
    admin.query("CREATE VIEW " + table + " AS SELECT 1 AS id UNION ALL SELECT 2 UNION ALL SELECT 3").execute()
        .await(10, TimeUnit.SECONDS);
    assertEquals(3L, readOnce(read));
    assertTrue(until(() -> !adapter.neutralReads.neutral(read, System.currentTimeMillis())), "a view is not neutral");
    assertFalse(adapter.neutralReads.neutral(read, System.currentTimeMillis()));
  }

  private static boolean until(java.util.function.BooleanSupplier condition) throws InterruptedException {
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
