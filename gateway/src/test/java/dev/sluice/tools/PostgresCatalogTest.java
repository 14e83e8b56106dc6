package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ScanProblem;
import dev.sluice.catalog.SnapshotStore;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.sql.Driver;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestDatabases;
import dev.sluice.testing.TestGateway;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PostgresCatalogTest extends ServerCatalogContract {

  private final String schema = TestDatabases.uniqueName("cat_pg");
  private final String role = TestDatabases.uniqueName("cat_reader");

  @Override
  protected ConnectionConfig setUp(Path dir) throws Exception {
    TestDatabases.requirePostgres();
    vertx = Vertx.vertx();
    admin = PgBuilder.pool().connectingTo(TestDatabases.pgUrl(TestDatabases.PG_DATABASE)).using(vertx).build();
    DemoDataset.loadPostgres(admin, schema).await(2, TimeUnit.MINUTES);
    exec("CREATE TABLE " + qualified("scratch_notes") + " (id int)");
    return new ConnectionConfig("db", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE), null,
        null, null, "demo", 4, 64, 30_000, 1_000, 10_000).withSchemas(List.of(schema));
  }

  @Override
  protected List<String> cleanUp() {
    return List.of("DROP SCHEMA IF EXISTS " + schema + " CASCADE", "DROP ROLE IF EXISTS " + role);
  }

  @Override
  protected String namespace() {
    return schema;
  }

  @Override
  protected String driver() {
    return "postgres";
  }

  @Override
  protected List<String> engineColumns(String table) throws Exception {
    return informationSchemaColumns("SELECT column_name, is_nullable FROM information_schema.columns"
        + " WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position", table);
  }

  @Override
  protected List<String> engineForeignKeys(String table) throws Exception {
    return foreignKeys("SELECT kcu.column_name, ccu.table_name, ccu.column_name"
        + " FROM information_schema.table_constraints tc"
        + " JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = tc.constraint_name"
        + "  AND kcu.constraint_schema = tc.constraint_schema"
        + " JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name"
        + "  AND ccu.constraint_schema = tc.constraint_schema"
        + " WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = $1 AND tc.table_name = $2", table);
  }


  /**
   * The start-up scan runs in the background: while it waits on a locked table the gateway
   * answers, and the catalog tools say the scan is in progress and how far it got.
   */
  @Test
  void whileTheStartUpScanRunsToolsReportItsProgress() throws Exception {
    io.vertx.sqlclient.SqlConnection locker = admin.getConnection().await(10, TimeUnit.SECONDS);
    Path dir = Files.createTempDirectory("sluice-catalog-progress");
    ConnectionConfig c = new ConnectionConfig("db", Driver.POSTGRES, TestDatabases.pgUrl(TestDatabases.PG_DATABASE),
        null, null, null, "demo", 4, 64, 30_000, 1_000, 10_000).withSchemas(List.of(schema));
    TestGateway starting = null;
    try {
      locker.query("BEGIN").execute().await(10, TimeUnit.SECONDS);
      locker.query("LOCK TABLE " + qualified("payments") + " IN ACCESS EXCLUSIVE MODE").execute()
          .await(10, TimeUnit.SECONDS);
      starting = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(c), dir)
          .withCatalog(dev.sluice.config.CatalogConfig.defaults()), null);
      dev.sluice.testing.McpHttpClient client = starting.client();
      client.initialize(dev.sluice.mcp.ProtocolRevision.LATEST);
      JsonObject asked = new JsonObject().put("connectionId", "db")
          .put("entities", new io.vertx.core.json.JsonArray().add(new JsonObject().put("table", "payments")));
      JsonObject err = null;
      for (int i = 0; i < 100 && err == null; i++) {
        JsonObject r = client.callTool("entity_details", asked).getJsonObject("result");
        JsonObject s = McpHttpClient.body(r);
        if ("profile".equals(s.getJsonObject("progress", new JsonObject()).getString("phase"))) {
          err = s;
        } else {
          Thread.sleep(100);
        }
      }
      assertTrue(err != null, "the scan never reported the profile phase");
      assertEquals("not_ready", err.getString("error_type"));
      assertTrue(err.getString("message").contains("is being scanned (profile "), err.getString("message"));
      assertEquals(7, err.getJsonObject("progress").getInteger("total"), err.encode());
      assertEquals(2000, err.getInteger("retryAfterMs"));
      locker.query("ROLLBACK").execute().await(10, TimeUnit.SECONDS);
      JsonObject ok = null;
      for (int i = 0; i < 200 && ok == null; i++) {
        JsonObject r = client.callTool("entity_details", asked).getJsonObject("result");
        if (!r.getBoolean("isError")) {
          ok = r.getJsonObject("structuredContent");
        } else {
          Thread.sleep(100);
        }
      }
      assertTrue(ok != null, "the scan never finished after the lock was released");
      assertEquals(6, ok.getJsonArray("entities").getJsonObject(0).getJsonArray("columns").size());
      assertTrue(new SnapshotStore(dir).read("db").orElseThrow().snapshot().problems().isEmpty());
    } finally {
      locker.close().await(10, TimeUnit.SECONDS);
      if (starting != null) {
        starting.close();
      }
    }
  }

  @Test
  void aTableTheScanUserCannotReadIsReportedNotFatal() throws Exception {
    exec("CREATE ROLE " + role + " LOGIN");
    exec("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
    exec("GRANT SELECT ON ALL TABLES IN SCHEMA " + schema + " TO " + role);
    exec("REVOKE SELECT ON " + qualified("payments") + " FROM " + role);
    Path dir = Files.createTempDirectory("sluice-catalog-role");
    String url = "postgresql://" + role + "@" + TestDatabases.PG_HOST + ":" + TestDatabases.PG_PORT + "/"
        + TestDatabases.PG_DATABASE;
    ConnectionConfig limited = new ConnectionConfig("db", Driver.POSTGRES, url, null, null, null, "limited",
        2, 64, 30_000, 1_000, 10_000).withSchemas(List.of(schema));
    JsonObject summary = OneOffScan.run(TestGateway.config(ServerConfig.defaults(), List.of(limited), dir), "db");
    assertEquals(1, summary.getInteger("problems"), summary.encode());
    CatalogSnapshot s = new SnapshotStore(dir).read("db").orElseThrow().snapshot();
    ScanProblem p = s.problems().get(0);
    assertEquals(schema + ".payments", p.object());
    assertEquals("permission_denied", p.errorType());
    CatalogTable payments = s.tables().stream().filter(t -> t.ref().name().equals("payments")).findFirst()
        .orElseThrow();
    assertEquals(6, payments.columns().size(), "metadata of an unreadable table is still listed");
    assertTrue(payments.columns().stream().noneMatch(c -> c.profiled()));
    CatalogTable customers = s.tables().stream().filter(t -> t.ref().name().equals("customers")).findFirst()
        .orElseThrow();
    assertFalse(customers.columns().stream().filter(c -> c.name().equals("city")).findFirst().orElseThrow()
        .sampleValues().isEmpty());
  }
}
