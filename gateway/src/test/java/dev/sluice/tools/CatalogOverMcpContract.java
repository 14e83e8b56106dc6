package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.ServerConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoColumn;
import dev.sluice.demo.DemoDataset;
import dev.sluice.demo.DemoSchema;
import dev.sluice.demo.DemoTable;
import dev.sluice.gateway.OneOffScan;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The catalog tools end to end, per engine: the demo dataset loaded into the real database, a real
 * gateway, a scan through the same path as {@code sluice scan}, and entity_details /
 * dictionary_search / sql_dialect_notes over HTTP, checked against the engine's own catalog and
 * the generator's schema.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class CatalogOverMcpContract {

  protected TestGateway gw;
  private SluiceConfig config;
  private JsonObject beforeFirstScan;
  private JsonObject firstScan;

  /** Loads the demo and a scratch table {@code scratch_notes(id int)}; returns connection {@code db}. */
  protected abstract ConnectionConfig setUp(Path dir) throws Exception;

  protected abstract void tearDown() throws Exception;

  /** The schema/database the demo lives in, as the catalog reports it ({@code main} for SQLite). */
  protected abstract String namespace();

  /** The driver's wire name as connection_list reports it. */
  protected abstract String driver();

  protected abstract void exec(String sql) throws Exception;

  /** Column name and nullability as the engine's own catalog lists them, in position order. */
  protected abstract List<String> engineColumns(String table) throws Exception;

  /** "fromColumn->toTable.toColumn" as the engine's own catalog lists them. */
  protected abstract List<String> engineForeignKeys(String table) throws Exception;

  @BeforeAll
  void startGateway() throws Exception {
    Path dir = Files.createTempDirectory("sluice-catalog-mcp");
    config = TestGateway.config(ServerConfig.defaults(), List.of(setUp(dir)), dir);
    gw = TestGateway.start(config, null);
    beforeFirstScan = entityDetails(session(), new JsonArray().add(new JsonObject().put("table", "orders")));
    firstScan = scan();
  }

  @AfterAll
  void stopGateway() throws Exception {
    if (gw != null) {
      gw.close();
    }
    tearDown();
  }

  protected JsonObject scan() throws Exception {
    return OneOffScan.run(config, "db");
  }

  private McpHttpClient session() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    return c;
  }

  protected JsonObject entityDetails(McpHttpClient c, JsonArray entities) throws Exception {
    return c.callTool("entity_details", new JsonObject().put("connectionId", "db").put("entities", entities))
        .getJsonObject("result");
  }

  private JsonObject dictionary(McpHttpClient c, String... values) throws Exception {
    JsonObject r = c.callTool("dictionary_search", new JsonObject().put("values", new JsonArray(List.of(values))))
        .getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    return r.getJsonObject("structuredContent");
  }

  @Test
  void beforeTheFirstScanToolsSayHowToGetACatalog() {
    assertTrue(beforeFirstScan.getBoolean("isError"), beforeFirstScan.encode());
    JsonObject err = McpHttpClient.errorBody(beforeFirstScan);
    assertEquals("not_ready", err.getString("error_type"));
    assertTrue(err.getString("message").contains("scan db"), err.getString("message"));
    assertEquals(DemoSchema.TABLES.size() + 1, firstScan.getInteger("tables"), firstScan.encode());
    assertEquals(0, firstScan.getInteger("problems"), firstScan.encode());
  }

  @Test
  void entityDetailsMatchesTheEngineCatalogAndTheGenerator() throws Exception {
    McpHttpClient c = session();
    JsonArray asked = new JsonArray();
    DemoSchema.TABLES.forEach(t -> asked.add(new JsonObject().put("table", t.name())));
    JsonObject r = entityDetails(c, asked);
    assertFalse(r.getBoolean("isError"), r.encode());
    JsonArray entities = r.getJsonObject("structuredContent").getJsonArray("entities");
    assertEquals(DemoSchema.TABLES.size(), entities.size());
    for (int i = 0; i < DemoSchema.TABLES.size(); i++) {
      DemoTable expected = DemoSchema.TABLES.get(i);
      JsonObject e = entities.getJsonObject(i);
      assertEquals(expected.name(), e.getJsonObject("tableRef").getString("name"));
      assertEquals(namespace(), e.getJsonObject("tableRef").getString("db"));
      assertEquals("table", e.getString("kind"));
      assertEquals(expected.comment(), e.getString("comment"), "table comment of " + expected.name());
      List<String> columns = new ArrayList<>();
      List<String> generated = new ArrayList<>();
      JsonArray cols = e.getJsonArray("columns");
      for (int k = 0; k < cols.size(); k++) {
        JsonObject col = cols.getJsonObject(k);
        columns.add(col.getString("name") + (col.getBoolean("nullable") ? " null" : " not null"));
        DemoColumn d = expected.columns().get(k);
        generated.add(d.name() + (d.nullable() ? " null" : " not null"));
        assertEquals(d.comment(), col.getString("comment"), expected.name() + "." + d.name());
        assertEquals(k == 0, col.getBoolean("primaryKey"), expected.name() + "." + d.name());
        assertNotNull(col.getString("nativeType"));
        assertEquals(dimension(d), col.getString("dimensionType"), expected.name() + "." + d.name());
      }
      assertEquals(engineColumns(expected.name()), columns, "columns of " + expected.name());
      assertEquals(generated, columns, "columns of " + expected.name());
      List<String> fks = new ArrayList<>();
      List<String> generatedFks = new ArrayList<>();
      e.getJsonArray("foreignKeys").forEach(o -> {
        JsonObject fk = (JsonObject) o;
        fks.add(fk.getString("fromColumn") + "->" + fk.getString("toTable") + "." + fk.getString("toColumn"));
        assertEquals(namespace(), fk.getString("toDb"));
      });
      expected.columns().stream().filter(d -> d.references() != null)
          .forEach(d -> generatedFks.add(d.name() + "->" + d.references() + ".id"));
      assertEquals(engineForeignKeys(expected.name()).stream().sorted().toList(), fks.stream().sorted().toList());
      assertEquals(generatedFks.stream().sorted().toList(), fks.stream().sorted().toList());
      assertNotNull(e.getJsonObject("snapshot").getString("syncId"));
    }
  }

  private static String dimension(DemoColumn d) {
    return switch (d.type()) {
      case TIMESTAMP -> "time";
      case INT, BIGINT, NUMERIC -> "number";
      case BOOLEAN -> "boolean";
      default -> "string";
    };
  }

  @Test
  void qualifiedAndAliasedNamesResolveToTheSameTable() throws Exception {
    McpHttpClient c = session();
    JsonObject r = entityDetails(c, new JsonArray()
        .add(new JsonObject().put("table", namespace() + ".orders"))
        .add(new JsonObject().put("table", new JsonObject().put("schema", namespace()).put("table", "orders")))
        .add(new JsonObject().put("table", "orders").put("schema", namespace()))
        .add(new JsonObject().put("table", new JsonObject().put("catalog", null).put("db", namespace())
            .put("name", "ORDERS")))
        .add(new JsonObject().put("table", "orders").put("columns", new JsonArray().add("status").add("totl"))));
    assertFalse(r.getBoolean("isError"), r.encode());
    JsonArray entities = r.getJsonObject("structuredContent").getJsonArray("entities");
    assertEquals(5, entities.size());
    entities.forEach(o -> assertEquals("orders", ((JsonObject) o).getJsonObject("tableRef").getString("name")));
    JsonArray onlyStatus = entities.getJsonObject(4).getJsonArray("columns");
    assertEquals(1, onlyStatus.size());
    assertEquals("status", onlyStatus.getJsonObject(0).getString("name"));
    JsonObject columnError = r.getJsonObject("structuredContent").getJsonArray("errors").getJsonObject(0);
    assertEquals("column_not_found", columnError.getString("error_type"));
    assertEquals(new JsonArray().add("total"), columnError.getJsonArray("suggestions"));
  }

  @Test
  void aMissingTableSuggestsNamesAndHowToRescan() throws Exception {
    JsonObject r = entityDetails(session(), new JsonArray().add(new JsonObject().put("table", "ordrs")));
    assertTrue(r.getBoolean("isError"), r.encode());
    JsonObject err = McpHttpClient.errorBody(r);
    assertEquals("table_not_found", err.getString("error_type"));
    assertTrue(err.getJsonArray("suggestions").contains("orders"), err.encode());
    assertTrue(err.getString("hint").contains("scan db"), err.encode());
  }

  @Test
  void dictionarySearchFindsSampledLiteralsAndReportsCoverage() throws Exception {
    String product = DemoDataset.generate().rows(DemoSchema.PRODUCTS).stream()
        .map(row -> (String) row[2]).sorted().findFirst().orElseThrow();
    JsonObject s = dictionary(session(), "berlin", product, "SHIPPED", "no-such-literal-zz");
    JsonObject searched = s.getJsonArray("searched").getJsonObject(0);
    assertEquals("ready", searched.getString("status"));
    JsonObject coverage = searched.getJsonObject("coverage");
    assertEquals(10_000, coverage.getInteger("sampledRows"));
    assertEquals(100, coverage.getInteger("valuesPerColumn"));
    assertTrue(coverage.getInteger("profiledColumns") >= 15, coverage.encode());
    assertNotNull(coverage.getString("syncId"));
    JsonArray results = s.getJsonArray("results");
    assertHit(results.getJsonObject(0), "customers", "city", "Berlin");
    assertHit(results.getJsonObject(1), "products", "name", product);
    assertHit(results.getJsonObject(2), "orders", "status", "shipped");
    JsonObject miss = results.getJsonObject(3);
    assertTrue(miss.getJsonArray("matches").isEmpty());
    assertEquals(new JsonObject().put("connectionId", "db").put("reason", "value_not_in_sample"),
        miss.getJsonArray("misses").getJsonObject(0));
  }

  private void assertHit(JsonObject result, String table, String column, String value) {
    boolean found = false;
    for (Object o : result.getJsonArray("matches")) {
      JsonObject m = (JsonObject) o;
      found |= m.getString("sourceName").endsWith(table) && m.getString("columnName").equals(column)
          && m.getString("matchedValue").equals(value);
    }
    assertTrue(found, "expected " + table + "." + column + " = " + value + " in " + result.encode());
    assertTrue(result.getJsonArray("misses").isEmpty(), result.encode());
  }

  @Test
  void aRescanAfterAlterTableShowsTheNewColumnWithoutARestart() throws Exception {
    McpHttpClient c = session();
    JsonArray scratch = new JsonArray().add(new JsonObject().put("table", "scratch_notes"));
    JsonObject before = entityDetails(c, scratch).getJsonObject("structuredContent").getJsonArray("entities")
        .getJsonObject(0);
    assertEquals(1, before.getJsonArray("columns").size(), before.encode());
    exec("ALTER TABLE " + qualified("scratch_notes") + " ADD COLUMN reviewer_note VARCHAR(80)");
    JsonObject rescan = scan();
    JsonObject after = entityDetails(c, scratch).getJsonObject("structuredContent").getJsonArray("entities")
        .getJsonObject(0);
    assertEquals(List.of("id", "reviewer_note"), after.getJsonArray("columns").stream()
        .map(o -> ((JsonObject) o).getString("name")).toList());
    assertEquals(rescan.getString("syncId"), after.getJsonObject("snapshot").getString("syncId"));
    assertNotEquals(before.getJsonObject("snapshot").getString("syncId"),
        after.getJsonObject("snapshot").getString("syncId"));
  }

  @Test
  void dialectNotesDescribeThisEngine() throws Exception {
    McpHttpClient c = session();
    JsonObject r = c.callTool("sql_dialect_notes", new JsonObject().put("connectionId", "db"))
        .getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    JsonObject s = r.getJsonObject("structuredContent");
    assertEquals(driver(), s.getString("driver"));
    assertEquals(DialectNotes.TOPICS, s.getJsonArray("topics").getList());
    assertTrue(s.getString("markdown").contains("```sql"));
    JsonObject bad = c.callTool("sql_dialect_notes", new JsonObject().put("connectionId", "nope"))
        .getJsonObject("result");
    assertTrue(bad.getBoolean("isError"));
    assertEquals("invalid_argument", McpHttpClient.errorBody(bad).getString("error_type"));
    assertEquals(new JsonArray().add("db"), McpHttpClient.errorBody(bad).getJsonArray("availableConnections"));
  }

  protected String qualified(String table) {
    return namespace() + "." + table;
  }
}
