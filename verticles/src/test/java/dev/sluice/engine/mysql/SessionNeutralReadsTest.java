package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which reads the MySQL adapter may send without the reset (the server's part is in MySqlExecutorTest). */
class SessionNeutralReadsTest {

  private final SessionNeutralReads reads = new SessionNeutralReads();

  private static AnalysedStatement my(String sql) {
    return SqlAnalyzer.analyseNow(MySqlEngine.INSTANCE.dialect(), sql);
  }

  /** (How long a standing holds, and which names are kept, is RelationStandingsTest's.) */
  @Test
  void aReadOfKnownBaseTablesIsNeutral() {
    reads.learned("shop.orders", true, 0);
    reads.learned("customers", true, 0);
    AnalysedStatement a = my("SELECT o.id, c.name FROM shop.orders o JOIN customers c ON c.id = o.customer_id"
        + " WHERE o.total >= 10 AND CAST(c.name AS CHAR) <> 'x' AND c.id DIV 2 ^ 1 = 0 ORDER BY 1 LIMIT 5");
    assertTrue(reads.neutral(a, 1), "casts and operators run nothing else on MySQL");
    assertEquals(List.of(), reads.toLookUp(a, 1));
    assertTrue(reads.neutral(my("SELECT 1 AS one"), 1));
    assertTrue(reads.neutral(my("SELECT SQL_CALC_FOUND_ROWS * FROM customers LIMIT 1"), 1),
        "its FOUND_ROWS() is cleared behind it like every read's");
  }

  @Test
  void aViewOrAnUnknownNameIsNotNeutral() {
    reads.learned("v", false, 0);
    assertFalse(reads.neutral(my("SELECT * FROM v"), 1));
    assertFalse(reads.neutral(my("SELECT * FROM gone"), 1));
    assertEquals(List.of("gone"), reads.toLookUp(my("SELECT * FROM gone"), 1));
  }

  @Test
  void whatIsNotAPlainQueryOfPlainNamesIsNeverACandidate() {
    reads.learned("t", true, 0);
    for (String sql : List.of(
        "SELECT @x := a FROM t",                      // refused by the guard too
        "SELECT * FROM `T`",                           // a name that reads differently unquoted
        "SELECT * FROM `t x`",
        "EXPLAIN SELECT * FROM t",
        "SHOW TABLES",
        "SELECT * FROM t; SELECT 1")) {
      assertFalse(reads.neutral(my(sql), 1), sql);
      assertEquals(List.of(), reads.toLookUp(my(sql), 1), sql);
    }
    assertFalse(reads.neutral(null, 1), "an unguarded run brings no analysis");
    assertTrue(reads.neutral(my("SELECT j.a FROM JSON_TABLE('[1]', '$[*]' COLUMNS (a INT PATH '$')) j, t"), 1),
        "a built-in table function runs nothing else");
  }

  @Test
  void aReaderOfThePreviousStatementsDiagnosticsIsKnownByItsText() {
    for (String sql : List.of("SELECT FOUND_ROWS()", "SELECT n, ROW_COUNT() FROM t", "SELECT @@warning_count",
        "SELECT @@SESSION.error_count", "SELECT @x FROM t")) {
      assertTrue(SessionNeutralReads.readsDiagnostics(my(sql)), sql);
    }
    for (String sql : List.of("SELECT 1 AS one", "SELECT n FROM t WHERE s = '@@warning_count' AND f = 'FOUND_ROWS()'",
        "SELECT count(*) FROM t")) {
      assertFalse(SessionNeutralReads.readsDiagnostics(my(sql)), sql);
    }
    assertTrue(SessionNeutralReads.readsDiagnostics(null), "no analysis: assume it does");
  }

  @Test
  void theLookUpNamesTheSchemaOrTheConnectionsDatabase() {
    assertEquals("SELECT COUNT(*) > 0 AND MIN(TABLE_TYPE = 'BASE TABLE') FROM information_schema.TABLES"
        + " WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'orders'", SessionNeutralReads.lookUp("shop.orders"));
    assertTrue(SessionNeutralReads.lookUp("orders").contains("TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'orders'"));
  }
}
