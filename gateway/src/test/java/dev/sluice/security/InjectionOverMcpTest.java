package dev.sluice.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testing.McpHttpClient;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17, "writes through sql_explain / sql_execution hidden from a tokenizer" and "obfuscated
 * names": each engine's corpus ({@code security/<engine>-writes.txt}: quote, escape, comment and
 * EXPLAIN forms hiding a second statement; writes, DDL, session control, host access; forbidden
 * functions as U&amp;"..." identifiers, UESCAPE, quoted, schema-qualified, mixed case, in FROM,
 * subqueries, CTEs, ORDER BY) goes through sql_execution, sql_explain (with and without analyze),
 * sql_compare (as baseline and as candidate) and three approved queries (as the value of their
 * parameter), as the ungoverned default principal and as a governed one, on superuser
 * connections. Afterwards every table's checksum, the relations, sequences, large objects, roles,
 * server settings, advisory and user locks, the SQLite file and its directory, and the paths a
 * COPY / INTO OUTFILE / VACUUM INTO / ATTACH would write are exactly as before.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ExtendWith(SecurityGateway.Shared.class)
class InjectionOverMcpTest {

  private SecurityGateway sg;
  private Map<String, String> vars;

  @BeforeAll
  void start() throws Exception {
    sg = SecurityGateway.Shared.get();
    vars = Map.of("OUT", sg.shop.outPrefix, "LOCK_KEY", String.valueOf(AdversarialShop.LOCK_KEY),
        "LOCK_NAME", AdversarialShop.LOCK_NAME, "MYDB", sg.shop.myDatabase);
  }

  private void corpus(String conn, String resource) throws Exception {
    Attacks attacks = Attacks.load(resource, vars);
    Map<String, Map<String, String>> before = sg.shop.state();
    AttackRunner runner = new AttackRunner(sg);
    runner.run(conn, List.of(SecurityGateway.DEFAULT, SecurityGateway.SALES), attacks.list(), AttackRunner.ALL_TOOLS);
    Map<String, Map<String, String>> after = sg.shop.state();
    assertEquals(before, after, "an attack changed data, files or locks on " + conn);
    AttackRunner.assertNone(runner.problems(), "on " + conn);
    System.out.println(runner.summary(conn, AttackRunner.ALL_TOOLS.size(), "2 principals, " + runner.calls()
        + " calls, all refused where required, data, files and locks unchanged"));
  }

  /** The comparison the corpus tests rest on sees a changed row, a new table and a written file. */
  @Test
  void theStateSeesEveryKindOfChange() throws Exception {
    Map<String, Map<String, String>> before = sg.shop.state();
    for (String conn : List.of("pg", "my")) {
      String orders = conn.equals("my") ? sg.shop.myDatabase + ".orders" : "orders";
      sg.shop.admin(conn, "UPDATE " + orders + " SET total = total + 1 WHERE id = 1");
      assertFalse(before.equals(sg.shop.state()), conn + ": a changed row went unseen");
      sg.shop.admin(conn, "UPDATE " + orders + " SET total = total - 1 WHERE id = 1");
    }
    sg.shop.admin("pg", "CREATE TABLE pwn_probe (id int)");
    assertFalse(before.equals(sg.shop.state()), "a new table went unseen");
    sg.shop.admin("pg", "DROP TABLE pwn_probe");
    java.nio.file.Path file = java.nio.file.Path.of(sg.shop.outPrefix + "_probe");
    java.nio.file.Files.writeString(file, "x");
    assertFalse(before.equals(sg.shop.state()), "a written file went unseen");
    java.nio.file.Files.delete(file);
    assertEquals(before, sg.shop.state());
  }

  @Test
  void postgresWritesAndObfuscatedFunctionsAreRefusedThroughEveryTool() throws Exception {
    corpus("pg", "postgres-writes.txt");
    // the pooled sessions carry nothing from the attacks
    McpHttpClient c = sg.session(SecurityGateway.DEFAULT);
    for (int i = 0; i < 4; i++) {
      JsonObject r = c.toolResult("sql_execution", new JsonObject().put("connectionId", "pg")
          .put("sql", "SELECT current_setting('sluice.x', true) AS v, current_setting('default_transaction_read_only')"
              + " AS ro"));
      assertFalse(r.getBoolean("isError"), r.encode());
      Object v = r.getJsonObject("structuredContent").getJsonArray("rows").getJsonArray(0).getValue(0);
      assertTrue(v == null || v.toString().isEmpty(), "a session setting survived: " + r.encode());
    }
  }

  @Test
  void mariadbWritesExecutableCommentsAndLocksAreRefusedThroughEveryTool() throws Exception {
    corpus("my", "mysql-writes.txt");
  }

  @Test
  void sqliteWritesFilesAndExtensionsAreRefusedThroughEveryTool() throws Exception {
    corpus("lite", "sqlite-writes.txt");
  }
}
