package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
   * inside it (read only, the call's own deadline), and no prepared statement may outlive a call,
   * whether it read everything, stopped at maxRows, or failed while executing.
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

    // one pooled connection served every call above, so its session shows what they left
    JsonObject left = unguarded(v, "pipe", "SELECT count(*) AS n FROM pg_prepared_statements");
    assertEquals("1", String.valueOf(left.getJsonArray("rows").getJsonArray(0).getValue(0)),
        "only the statement reading pg_prepared_statements itself: " + left);
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
