package dev.sluice.demo;

import static dev.sluice.demo.DemoEngineCheck.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.sql.Dialect;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Tuple;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoPostgresTest {

  @TempDir
  Path dir;

  private Vertx vertx;
  private Pool pool;
  private String schema;

  @BeforeEach
  void setUp() {
    TestDatabases.requirePostgres();
    vertx = Vertx.vertx();
    pool = PgBuilder.pool()
        .with(new PoolOptions().setMaxSize(2))
        .connectingTo(PgConnectOptions.fromUri(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)))
        .using(vertx)
        .build();
    schema = TestDatabases.uniqueName("demo");
  }

  @AfterEach
  void tearDown() throws Exception {
    if (pool != null) {
      await(pool.query("DROP SCHEMA IF EXISTS \"" + schema + "\" CASCADE").execute());
      await(pool.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  @Test
  void postgresHoldsTheSameDataAsSqlite() throws Exception {
    Path file = dir.resolve("demo.sqlite");
    DemoDataset.writeSqlite(file);
    DemoEngineCheck check = new DemoEngineCheck(pool, Dialect.POSTGRES, schema);
    check.timedLoad("PostgreSQL", () -> DemoDataset.loadPostgres(pool, schema));

    check.assertSameDataAsSqliteAndGenerator(DemoSqliteTest.checksums(file));
    check.assertIntegrity();
    assertEquals(DemoEngineCheck.foreignKeyCount(), check.count(
        "SELECT COUNT(*) FROM information_schema.table_constraints WHERE table_schema = $1 "
            + "AND constraint_type = 'FOREIGN KEY'", Tuple.of(schema)));
    assertEquals(DemoSchema.TABLES.size() + DemoEngineCheck.columnCount(), check.count(
        "SELECT COUNT(*) FROM pg_description d JOIN pg_class c ON c.oid = d.objoid "
            + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1", Tuple.of(schema)));
  }

  @Test
  void loadingAgainReplacesTheTables() throws Exception {
    DemoEngineCheck check = new DemoEngineCheck(pool, Dialect.POSTGRES, schema);
    await(DemoDataset.loadPostgres(pool, schema));
    // from an event loop this time: generation must move off it
    check.timedLoad("PostgreSQL reload", () -> {
      Promise<Void> done = Promise.promise();
      vertx.runOnContext(v -> DemoDataset.loadPostgres(pool, schema).onComplete(done));
      return done.future();
    });
    assertEquals(DemoDataset.expectedRowCounts().get("orders").longValue(),
        check.count("SELECT COUNT(*) FROM \"" + schema + "\".orders", Tuple.tuple()));
  }
}
