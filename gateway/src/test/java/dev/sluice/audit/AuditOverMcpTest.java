package dev.sluice.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.engine.sqlite.SqliteDialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import dev.sluice.engine.sqlite.SqliteDialect;
import dev.sluice.sql.analysis.SqlAnalyzer;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The audit trail of a real gateway: one record per tools/call, refusals recorded without credentials. */
class AuditOverMcpTest {

  @Test
  void everyCallAndEveryRefusedRequestIsAuditedAndNoTokenIsWritten() throws Exception {
    Path dir = Files.createTempDirectory("sluice-audit");
    Path db = dir.resolve("a.sqlite");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      c.createStatement().execute("CREATE TABLE t (id INTEGER PRIMARY KEY, status TEXT)");
      c.createStatement().execute("INSERT INTO t VALUES (1, 'paid'), (2, 'shipped')");
    }
    ConnectionConfig lite = new ConnectionConfig("db", Driver.SQLITE, null, db.toString(), null, null, null, 1, 8,
        10_000, 100, 1_000);
    TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults().withToken("s3cret-token"),
        List.of(lite), dir), null);
    try {
      McpHttpClient c = gw.client();
      c.token = "s3cret-token";
      c.initialize(ProtocolRevision.LATEST);
      c.callTool("connection_list", new JsonObject());
      c.callTool("sql_execution", new JsonObject().put("connectionId", "db")
          .put("sql", "SELECT id FROM t WHERE status = 'paid'"));
      c.callTool("sql_execution", new JsonObject().put("connectionId", "db").put("sql", "DELETE FROM t"));
      McpHttpClient anonymous = gw.client();
      assertEquals(401, anonymous.post(McpHttpClient.request(1, "ping", new JsonObject()), Map.of()).status());
      assertEquals(401, anonymous.post(McpHttpClient.request(1, "ping", new JsonObject()),
          Map.of("Authorization", "Bearer wrong-token-value")).status());
    } finally {
      gw.close();
    }
    List<JsonObject> records = new ArrayList<>();
    StringBuilder raw = new StringBuilder();
    try (Stream<Path> files = Files.list(dir.resolve("audit"))) {
      for (Path f : files.toList()) {
        for (String line : Files.readAllLines(f)) {
          raw.append(line).append('\n');
          records.add(new JsonObject(line));
        }
      }
    }
    assertFalse(raw.toString().contains("s3cret-token"), "the token must never be audited");
    assertFalse(raw.toString().contains("wrong-token-value"), "nor a wrong one");
    List<JsonObject> calls = records.stream().filter(r -> "tools/call".equals(r.getString("type"))).toList();
    assertEquals(3, calls.size(), raw.toString());
    JsonObject ok = calls.get(1);
    assertEquals("sql_execution", ok.getString("tool"));
    assertEquals("db", ok.getString("connectionId"));
    assertEquals("default", ok.getString("principal"));
    assertEquals("SELECT id FROM t WHERE status = 'paid'", ok.getString("sql"));
    assertEquals(SqlAnalyzer.analyseNow(SqliteDialect.INSTANCE, "select id from t where status = 'x'").fingerprint(),
        ok.getString("fingerprint"), "the fingerprint ignores literals and case");
    assertEquals("ok", ok.getString("outcome"));
    assertEquals(1, ok.getInteger("rows"));
    assertTrue(ok.getString("queryId") != null && ok.getLong("durationMs") >= 0, ok.encode());
    assertEquals("sluice-test", ok.getJsonObject("client").getString("name"), ok.encode());
    JsonObject refused = calls.get(2);
    assertEquals("error", refused.getString("outcome"));
    assertEquals("validation_failed", refused.getString("errorType"));
    assertNull(refused.getInteger("rows"));
    List<JsonObject> denied = records.stream().filter(r -> "http_refused".equals(r.getString("type"))).toList();
    assertEquals(2, denied.size(), raw.toString());
    assertEquals(401, denied.get(0).getInteger("status"));
    assertEquals("Unauthorized: missing bearer token", denied.get(0).getString("reason"));
    assertEquals("Unauthorized: invalid bearer token", denied.get(1).getString("reason"));
  }

  /** With the PostgreSQL sink on, the table holds exactly the records the files hold. */
  @Test
  void thePostgresSinkHoldsTheSameRecordsAsTheFiles() throws Exception {
    dev.sluice.testing.TestDatabases.requirePostgres();
    String table = dev.sluice.testing.TestDatabases.uniqueName("sluice_audit_t");
    Path dir = Files.createTempDirectory("sluice-audit-pg");
    dev.sluice.config.SluiceConfig base = TestGateway.config(ServerConfig.defaults(), List.of(), dir);
    dev.sluice.config.AuditConfig a = base.audit();
    String url = dev.sluice.testing.TestDatabases.pgUrl(dev.sluice.testing.TestDatabases.PG_DATABASE);
    dev.sluice.config.SluiceConfig config = new dev.sluice.config.SluiceConfig(base.server(), dir, base.connections(),
        false, base.catalog(), base.ingest(), new dev.sluice.config.AuditConfig(true, a.dir(), a.maxFileBytes(),
            a.flushMs(), a.buffer(), a.onOverflow(), url, table), List.of(), null, null, null, null);
    TestGateway gw = TestGateway.start(config, null);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(10);
    try {
      List<java.util.concurrent.Future<?>> sessions = new ArrayList<>();
      for (int s = 0; s < 10; s++) {
        sessions.add(pool.submit(() -> {
          McpHttpClient c = gw.client();
          c.initialize(ProtocolRevision.LATEST);
          for (int i = 0; i < 20; i++) {
            c.callTool("connection_list", new JsonObject());
          }
          return null;
        }));
      }
      for (java.util.concurrent.Future<?> f : sessions) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
      gw.close();
    }
    long files = 0;
    try (Stream<Path> fs = Files.list(dir.resolve("audit"))) {
      for (Path f : fs.toList()) {
        files += Files.readAllLines(f).stream().filter(l -> l.contains("\"type\":\"tools/call\"")).count();
      }
    }
    io.vertx.core.Vertx v = io.vertx.core.Vertx.vertx();
    io.vertx.sqlclient.Pool pg = io.vertx.pgclient.PgBuilder.pool().connectingTo(url).using(v).build();
    try {
      long rows = pg.query("SELECT count(*) FROM " + table + " WHERE type = 'tools/call'").execute()
          .await(10, java.util.concurrent.TimeUnit.SECONDS).iterator().next().getLong(0);
      long distinct = pg.query("SELECT count(DISTINCT (session_id, record->>'callId')) FROM " + table).execute()
          .await(10, java.util.concurrent.TimeUnit.SECONDS).iterator().next().getLong(0);
      assertEquals(200, files);
      assertEquals(200, rows, "the PostgreSQL sink holds every record");
      assertEquals(200, distinct, "and no duplicates");
    } finally {
      pg.query("DROP TABLE IF EXISTS " + table).execute().await(10, java.util.concurrent.TimeUnit.SECONDS);
      pg.close();
      v.close();
    }
  }
}
