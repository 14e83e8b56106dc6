package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.sql.Driver;
import dev.sluice.sql.SqlBus;
import dev.sluice.testing.McpHttpClient;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** The SQL tools over MCP on SQLite, where every query runs in a killable worker process. */
class SqliteOverMcpTest extends SqlOverMcpContract {

  private static final int POOL_SIZE = 3;

  private Path dir;

  @Override
  protected ConnectionConfig setUp(long deadlineMs) throws Exception {
    dir = Files.createTempDirectory("sluice-sqlite-mcp");
    Path db = dir.resolve("scratch.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)");
      st.execute("INSERT INTO items WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 5000)"
          + " SELECT n, 'item ' || n FROM s");
    }
    return new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, "scratch", POOL_SIZE, 16,
        deadlineMs, 1_000, 10_000);
  }

  @Override
  protected void tearDown() throws Exception {
    if (dir != null) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Override
  protected String items() {
    return "items";
  }

  /** SQLite has no sleep(): a statement that never ends by itself stands in for it. */
  @Override
  protected String sleepSql(int seconds, String marker) {
    return cpuSql(marker);
  }

  @Override
  protected String cpuSql(String marker) {
    return "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS " + marker + " FROM c";
  }

  /** Busy worker processes of the connection: a killed query frees its slot (and its process). */
  @Override
  protected int running(String marker) throws Exception {
    return pool().getInteger("inUse");
  }

  /**
   * All POOL_SIZE workers started and idle: the runaway takes one, the cheap call another. The
   * pool starts one worker and grows as calls wait, so POOL_SIZE calls at once make it grow.
   */
  @Override
  protected void awaitAllSlotsReady() throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    JsonObject pool = pool();
    if (pool.getInteger("size") < POOL_SIZE) {
      java.util.List<java.util.concurrent.CompletableFuture<JsonObject>> calls = new java.util.ArrayList<>();
      for (int i = 0; i < POOL_SIZE; i++) {
        McpHttpClient c = gw.client();
        c.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
        calls.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
          try {
            return sql(c, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 300000) "
                + "SELECT count(*) FROM c", null);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        }));
      }
      for (var call : calls) {
        call.get(60, TimeUnit.SECONDS);
      }
      pool = pool();
    }
    while (pool.getInteger("size") < POOL_SIZE || pool.getInteger("inUse") > 0) {
      if (System.nanoTime() > until) {
        throw new AssertionError("the SQLite pool never got back to " + POOL_SIZE + " idle workers: " + pool);
      }
      Thread.sleep(50);
      pool = pool();
    }
  }

  private JsonObject pool() throws Exception {
    return gw.gateway.vertx().eventBus()
        .<JsonObject>request(SqlBus.info(Driver.SQLITE), new JsonObject().put("connectionId", "db"))
        .toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS).body().getJsonObject("pool");
  }
}
