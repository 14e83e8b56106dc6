package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.DemoOnThreeEngines;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** sql_compare on the demo in SQLite, PostgreSQL and MariaDB: equivalent and subtly different rewrites, timeouts. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlCompareOverMcpTest {

  @AutoClose
  private DemoOnThreeEngines demo;
  private TestGateway gw;

  @BeforeAll
  void start() throws Exception {
    demo = DemoOnThreeEngines.load("cmp");
    gw = demo.serve(TestGateway.config(ServerConfig.defaults(), demo.connections(20_000), demo.dir));
  }


  private String t(String conn, String table) {
    return demo.table(conn, table);
  }

  private JsonObject compare(McpHttpClient c, String conn, String baseline, String candidate, JsonObject extra)
      throws Exception {
    JsonObject args = new JsonObject().put("connectionId", conn).put("baselineSql", baseline)
        .put("candidateSql", candidate).mergeIn(extra);
    JsonObject r = c.callTool("sql_compare", args).getJsonObject("result");
    assertFalse(r.getBoolean("isError"), r.encode());
    return r.getJsonObject("structuredContent");
  }

  @Test
  void equivalentRewritesAreEqualAndSubtleChangesAreCaughtWithRows() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    for (String conn : List.of("lite", "pg", "my")) {
      String o = t(conn, "orders");
      String cu = t(conn, "customers");
      String equivalent[][] = {
          {"SELECT cu.country, count(*) AS n FROM " + o + " o JOIN " + cu + " cu ON cu.id = o.customer_id GROUP BY cu.country",
              "SELECT cu.country, count(*) AS n FROM " + cu + " cu JOIN " + o + " o ON o.customer_id = cu.id GROUP BY cu.country"},
          {"WITH paid AS (SELECT customer_id FROM " + o + " WHERE status = 'paid') SELECT count(*) FROM paid",
              "SELECT count(*) FROM (SELECT customer_id FROM " + o + " WHERE status = 'paid') x"},
          {"SELECT id FROM " + cu + " cu WHERE EXISTS (SELECT 1 FROM " + o + " o WHERE o.customer_id = cu.id)",
              "SELECT id FROM " + cu + " WHERE id IN (SELECT customer_id FROM " + o + ")"}};
      for (String[] pair : equivalent) {
        JsonObject r = compare(c, conn, pair[0], pair[1], new JsonObject());
        assertEquals(Boolean.TRUE, r.getValue("equal"), conn + ": " + r.encode());
        assertEquals(r.getJsonObject("baseline").getString("checksum"), r.getJsonObject("candidate").getString("checksum"));
        assertEquals(6, r.getJsonArray("runs").size(), "3-run: warm-up and two measured runs per side");
        assertEquals("measured", r.getString("speedup_type"));
        assertTrue(List.of("WIN", "IMPROVED", "NEUTRAL", "REGRESSION").contains(r.getString("class")));
      }
      JsonObject distinct = compare(c, conn, "SELECT DISTINCT country FROM " + cu, "SELECT country FROM " + cu,
          new JsonObject().put("protocol", "interleaved"));
      assertEquals(Boolean.FALSE, distinct.getValue("equal"), conn);
      JsonArray extra = distinct.getJsonObject("differences").getJsonArray("onlyInCandidate");
      assertFalse(extra.isEmpty(), distinct.encode());
      assertTrue(extra.getJsonObject(0).getLong("extraCopies") > 0);

      // anonymous web events have no customer: the inner join drops them
      String we = t(conn, "web_events");
      JsonObject join = compare(c, conn,
          "SELECT w.id, cu.country FROM " + we + " w LEFT JOIN " + cu + " cu ON cu.id = w.customer_id",
          "SELECT w.id, cu.country FROM " + we + " w JOIN " + cu + " cu ON cu.id = w.customer_id", new JsonObject());
      assertEquals(Boolean.FALSE, join.getValue("equal"), conn + ": a changed join type");
      assertFalse(join.getJsonObject("differences").getJsonArray("onlyInBaseline").isEmpty());

      JsonObject rounded = compare(c, conn, "SELECT sum(total) * 1.0 / 3 AS x FROM " + o,
          "SELECT round(sum(total) * 1.0 / 3, 1) AS x FROM " + o, new JsonObject().put("protocol", "5-trimmed"));
      assertEquals(Boolean.FALSE, rounded.getValue("equal"), conn + ": " + rounded.encode());
      assertEquals(10, rounded.getJsonArray("runs").size());

      JsonObject none = compare(c, conn, "SELECT id FROM " + o + " WHERE status = 'no-such'",
          "SELECT id FROM " + o + " WHERE 1 = 0", new JsonObject());
      assertEquals(Boolean.TRUE, none.getValue("equal"));
      assertEquals(Boolean.TRUE, none.getBoolean("zero_row_unverified"));
    }
  }

  @Test
  void aBaselineThatTimesOutGivesASpeedupAgainstTheCeiling() throws Exception {
    McpHttpClient c = gw.client();
    c.initialize(ProtocolRevision.LATEST);
    JsonObject r = compare(c, "pg", "SELECT count(*) FROM generate_series(1, 100000000000) g", "SELECT 1",
        new JsonObject().put("timeoutMs", 1_000));
    assertEquals("vs_timeout_ceiling", r.getString("speedup_type"), r.encode());
    assertEquals(null, r.getValue("equal"));
    assertTrue(r.getDouble("speedup") > 1, r.encode());
    long timedOut = r.getJsonArray("runs").stream().filter(o -> ((JsonObject) o).getBoolean("timedOut")).count();
    assertEquals(3, timedOut, "the baseline's runs are all marked, only the first one spent the deadline");
  }
}
