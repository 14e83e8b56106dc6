package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.EngineExecutorContract;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlExecutorVerticle;
import dev.sluice.testing.TestDatabases;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.PoolOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class PgExecutorTest extends EngineExecutorContract {

  private final String schema = TestDatabases.uniqueName("pgexec");

  @Override
  protected Driver driver() {
    return Driver.POSTGRES;
  }

  @Override
  protected void createScratch() throws Exception {
    TestDatabases.requirePostgres();
    admin = PgBuilder.pool().with(new PoolOptions().setMaxSize(2))
        .connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    exec("CREATE SCHEMA " + schema);
  }

  @Override
  protected void dropScratch() throws Exception {
    exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
  }

  @Override
  protected ConnectionConfig config(String id, long timeoutMs, int poolSize, int maxWaitQueue) {
    return new ConnectionConfig(id, Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null, null, null,
        null, poolSize, maxWaitQueue, timeoutMs, 100, 10_000);
  }

  @Override
  protected SqlExecutorVerticle verticle(List<ConnectionConfig> configs) {
    return new SqlExecutorVerticle(dev.sluice.engine.postgres.PostgresEngine.INSTANCE, configs);
  }

  /**
   * The transaction start is pipelined with the statement's Parse: the statement must still run
   * inside it (read only, the call's own deadline), and no prepared statement but the driver's
   * cached ones may outlive a call, whether it read everything, stopped at maxRows, or failed.
   */
  @Test
  void pipelinedLeaseRunsInsideItsTransactionAndLeavesNothingBehind() throws Exception {
    SqlExecutorVerticle v = deploy(config("pipe", 30_000, 1, 8));
    JsonObject settings = ok(q("pipe", "SELECT current_setting('transaction_read_only') AS ro,"
        + " current_setting('statement_timeout') AS t, now() = statement_timestamp() AS single", 5)
        .put("timeoutMs", 1_234));
    assertEquals(new JsonArray().add("on").add("1234ms").add(false), settings.getJsonArray("rows").getJsonArray(0),
        "read only, SET LOCAL deadline, and an explicit transaction (now() is its start, not the statement's)");

    ok(q("pipe", "SELECT g FROM generate_series(1, 5) g", 100));
    JsonObject cut = ok(q("pipe", "SELECT g FROM generate_series(1, 5000) g", 3));
    assertTrue(cut.getBoolean("truncated"));
    assertEquals(ErrorType.QUERY_ERROR, err(q("pipe", "SELECT 1 / (g - 3) FROM generate_series(1, 5) g", 10)).type());
    assertEquals(ErrorType.SYNTAX_ERROR, err(q("pipe", "SELECT FROM WHERE", 10)).type());

    // One pooled connection served every call above, so its session shows what they left: the
    // driver's cached statements (bounded by its cache), none made by an SQL PREPARE.
    JsonObject left = unguarded(v, "pipe", "SELECT count(*) FILTER (WHERE from_sql) AS by_sql,"
        + " count(*) AS cached FROM pg_prepared_statements");
    assertEquals("0", String.valueOf(left.getJsonArray("rows").getJsonArray(0).getValue(0)), left.encode());
    assertTrue(Integer.parseInt(String.valueOf(left.getJsonArray("rows").getJsonArray(0).getValue(1))) <= 6,
        "one cached statement per distinct SQL at most: " + left);
  }

  /**
   * A small read with the connection's own deadline runs without a transaction of its own: the
   * server must still refuse every write it carries (the session's default), here past the guard
   * on a superuser connection, and must still stop it at the deadline.
   */
  @Test
  void oneTripReadStaysReadOnlyAndBoundOnTheServer() throws Exception {
    exec("CREATE SEQUENCE " + table("seq"));
    SqlExecutorVerticle v = deploy(config("bare", 1_000, 1, 4));
    JsonObject session = ok(q("bare", "SELECT current_setting('transaction_read_only') AS ro,"
        + " current_setting('statement_timeout') AS t, current_setting('is_superuser') AS su", 5));
    assertEquals(new JsonArray().add("on").add("1s").add("on"), session.getJsonArray("rows").getJsonArray(0),
        "read only with the connection's deadline, even for a superuser");
    for (String write : List.of("SELECT nextval('" + table("seq") + "')",
        "WITH gone AS (DELETE FROM " + table("customers") + " RETURNING 1) SELECT count(*) FROM gone",
        "SELECT set_config('transaction_read_only', 'off', true), nextval('" + table("seq") + "')")) {
      SqlError e = null;
      try {
        fail("the server ran a write: " + unguarded(v, "bare", write));
      } catch (Exception refused) {
        e = SqlError.from(refused);
      }
      System.out.printf("[postgres] one-trip read refused by the server: %s -> %s%n", write, e.getMessage());
      assertTrue(e.type() == ErrorType.VALIDATION_FAILED || "25001".equals(e.details().getString("sql_state")),
          write + ": " + e.toJson().encode());
    }
    assertEquals(2, count("SELECT count(*) FROM " + table("customers")));
    assertEquals(0, count("SELECT count(*) FROM " + table("seq") + " WHERE is_called"), "nextval ran");

    SqlError late = err(q("bare", "SELECT pg_sleep(5) AS bare_deadline", 5));
    assertEquals(ErrorType.TIMEOUT, late.type(), late.toJson().encode());
    awaitGone("bare_deadline");
    assertEquals(1, ok(q("bare", "SELECT 1 AS after", 5)).getInteger("rowCount"), "the connection serves again");
  }

  /**
   * A read that cannot change the session (plain tables, allow-listed functions, no casts) goes
   * without the reset behind it; one that can keeps it. The pooled backend's last statement in
   * pg_stat_activity tells which: the read itself, or the reset's look-up behind it. The trap is
   * a view whose function sets search_path for the session: read through it, the next call on the
   * same connection must still find the default.
   */
  @Test
  void onlyReadsThatCannotChangeTheSessionGoWithoutTheReset() throws Exception {
    exec("CREATE FUNCTION " + table("trap") + "() RETURNS int LANGUAGE plpgsql AS $$ BEGIN"
        + " PERFORM set_config('search_path', 'pg_catalog', false); RETURN 1; END $$");
    exec("CREATE VIEW " + table("trapview") + " AS SELECT " + table("trap") + "() AS x");
    deploy(config("neutral", 30_000, 1, 8));
    String plain = "SELECT pg_backend_pid() AS pid, count(*) AS n FROM " + table("customers");
    ok(q("neutral", plain, 5)); // the first read of the table looks it up in the catalog
    long pid = Long.parseLong(String.valueOf(ok(q("neutral", plain, 5)).getJsonArray("rows").getJsonArray(0).getValue(0)));
    assertEquals(plain, lastStatement(pid), "a neutral read is the backend's last statement: no reset behind it");

    String cast = "SELECT pg_backend_pid() AS pid, count(*)::text AS n FROM " + table("customers");
    ok(q("neutral", cast, 5));
    assertEquals(PgAdapter.SQL_PREPARED, lastStatement(pid), "a cast may run a domain's check: reset");

    for (int i = 0; i < 2; i++) {
      assertEquals(1, ok(q("neutral", "SELECT x FROM " + table("trapview"), 5)).getInteger("rowCount"));
      JsonObject after = ok(q("neutral", "SELECT current_setting('search_path') AS path", 5));
      assertEquals("\"$user\", public", after.getJsonArray("rows").getJsonArray(0).getString(0),
          "a view may run anything: its read is reset, and the next call finds the default");
    }
  }

  private String lastStatement(long pid) throws Exception {
    return String.valueOf(admin.query("SELECT query FROM pg_stat_activity WHERE pid = " + pid).execute()
        .await(10, java.util.concurrent.TimeUnit.SECONDS).iterator().next().getValue(0));
  }

  /**
   * Round trips per small read, counted on the wire at a relay in front of the server (client
   * flights that follow an answer): one per call once the statement is in the connection's cache,
   * whether the result is whole or cut at maxRows; a deadline shorter than the connection's still
   * takes the transaction (three).
   */
  @Test
  void aSmallReadIsOneRoundTrip() throws Exception {
    FlightCountingRelay relay = new FlightCountingRelay(vertx);
    int port = relay.start(TestDatabases.PG_HOST, TestDatabases.PG_PORT);
    try {
      ConnectionConfig c = new ConnectionConfig("trips", Driver.POSTGRES, "postgresql://" + TestDatabases.PG_USER
          + "@127.0.0.1:" + port + "/" + TestDatabases.PG_DATABASE, null, null, null, null, 1, 4, 5_000, 100, 10_000);
      deploy(c);
      String small = "SELECT count(*) AS n FROM " + table("customers");
      String cut = "SELECT g FROM generate_series(1, 5000) g";
      ok(q("trips", small, 5));
      ok(q("trips", cut, 3));
      int calls = 20;
      int before = relay.flights();
      for (int i = 0; i < calls; i++) {
        assertEquals("2", String.valueOf(ok(q("trips", small, 5)).getJsonArray("rows").getJsonArray(0).getValue(0)));
      }
      int whole = relay.flights() - before;
      before = relay.flights();
      for (int i = 0; i < calls; i++) {
        assertTrue(ok(q("trips", cut, 3)).getBoolean("truncated"));
      }
      int truncated = relay.flights() - before;
      before = relay.flights();
      for (int i = 0; i < calls; i++) {
        // the default row cap: sql_execution without maxRows
        assertTrue(ok(q("trips", cut, ConnectionConfig.DEFAULT_MAX_ROWS)).getBoolean("truncated"));
      }
      int atDefaultCap = relay.flights() - before;
      before = relay.flights();
      for (int i = 0; i < calls; i++) {
        ok(q("trips", small, 5).put("timeoutMs", 4_000));
      }
      int ownDeadline = relay.flights() - before;
      System.out.printf("[postgres] round trips per small read: %.2f whole, %.2f cut at maxRows, %.2f cut at the"
          + " default cap, %.2f with a shorter deadline (transaction)%n", whole / (double) calls,
          truncated / (double) calls, atDefaultCap / (double) calls, ownDeadline / (double) calls);
      assertEquals(calls, whole, "one round trip per small read");
      assertEquals(calls, truncated, "one round trip per read cut at maxRows");
      assertEquals(calls, atDefaultCap, "one round trip per read cut at the default cap of 1,000 rows");
      assertTrue(ownDeadline >= 2 * calls, "a shorter deadline opens its transaction: " + ownDeadline);
    } finally {
      relay.stop();
    }
  }

  @Override
  protected List<String[]> sessionState() {
    return List.of(
        new String[] {"SELECT pg_advisory_lock(424242)", "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' "
            + "AND pid = pg_backend_pid()", "1"},
        new String[] {"SELECT set_config('work_mem', '1234kB', false)", "SELECT current_setting('work_mem')", "1234kB"},
        new String[] {"SELECT set_config('default_transaction_read_only', 'off', false)",
            "SELECT current_setting('default_transaction_read_only')", "off"},
        new String[] {"SET SESSION statement_timeout = 999999", "SELECT current_setting('statement_timeout')",
            "999999ms"},
        new String[] {"PREPARE leak AS SELECT 1", "SELECT count(*) FROM pg_prepared_statements WHERE name = 'leak'",
            "1"},
        new String[] {"DECLARE leakcur CURSOR WITH HOLD FOR SELECT 1", "SELECT count(*) FROM pg_cursors WHERE name = 'leakcur'", "1"},
        new String[] {"LISTEN leak_channel", "SELECT count(*) FROM pg_listening_channels()", "1"});
  }

  @Override
  protected String heldLocksSql() {
    return "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'";
  }

  @Override
  protected String table(String name) {
    return schema + "." + name;
  }

  @Override
  protected String sleepSql(int seconds, String marker) {
    return "SELECT pg_sleep(" + seconds + ") AS " + marker;
  }

  @Override
  protected String cpuSql(String marker) {
    return "SELECT count(*) AS " + marker + " FROM generate_series(1, 10000000000::bigint)";
  }

  @Override
  protected void killOrphan(String marker) throws Exception {
    exec("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()");
  }

  @Override
  protected String activitySql(String marker) {
    return "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%" + marker
        + "%' AND pid <> pg_backend_pid()";
  }

  @Override
  protected List<String> bigTableSql(int rows) {
    return List.of("CREATE TABLE " + table("big") + " AS SELECT g AS n, md5(g::text) AS label FROM generate_series(1, "
        + rows + ") g");
  }

}
