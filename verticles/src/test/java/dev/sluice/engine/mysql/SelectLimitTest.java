package dev.sluice.engine.mysql;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import org.junit.jupiter.api.Test;

/** Which MySQL reads sql_select_limit bounds, so they may take the one-trip text read (the server side is in MySqlExecutorTest). */
class SelectLimitTest {

  private static AnalysedStatement my(String sql) {
    return SqlAnalyzer.analyseNow(MySqlEngine.INSTANCE.dialect(), sql);
  }

  private static boolean bounds(String sql) {
    return SelectLimit.bounds(my(sql), 11);
  }

  @Test
  void plainSelectsUnionsAndCtesAreBoundedByTheSessionLimit() {
    assertTrue(bounds("SELECT count(*) FROM items"));
    assertTrue(bounds("select a, b from t where c = 'limit 99999' order by a"));
    assertTrue(bounds("SELECT a FROM t UNION ALL SELECT a FROM u"));
    assertTrue(bounds("WITH c AS (SELECT a FROM t LIMIT 100000) SELECT * FROM c"));
    assertTrue(bounds("SELECT * FROM (SELECT a FROM t LIMIT 500000) d"));
    assertFalse(bounds("(SELECT a FROM t LIMIT 100000) UNION (SELECT 1)"), "only SELECT or WITH first");
  }

  @Test
  void anOwnLimitOnlyWhenItIsALiteralWithinTheCap() {
    assertTrue(bounds("SELECT a FROM t LIMIT 10"));
    assertTrue(bounds("SELECT a FROM t LIMIT 11"));
    assertTrue(bounds("SELECT a FROM t ORDER BY a LIMIT 5 OFFSET 100000"));
    assertTrue(bounds("SELECT a FROM t LIMIT 100000, 5"));
    assertTrue(bounds("SELECT a FROM t LIMIT 5 FOR UPDATE"));
    assertFalse(bounds("SELECT a FROM t LIMIT 12"));
    assertFalse(bounds("SELECT a FROM t LIMIT 5, 100000"));
    assertFalse(bounds("SELECT a FROM t LIMIT 18446744073709551615"));
    assertFalse(bounds("SELECT a FROM t UNION SELECT a FROM u LIMIT 1000000"));
    assertFalse(bounds("SELECT a FROM t LIMIT 5 ROWS EXAMINED 100"));
    assertFalse(bounds("SELECT a FROM t OFFSET 5 ROWS FETCH FIRST 100000 ROWS ONLY"));
    assertFalse(bounds("SELECT a FROM t FETCH FIRST 100000 ROWS ONLY"));
  }

  @Test
  void otherStatementsAndUnguardedCallsTakeTheCursor() {
    assertFalse(SelectLimit.bounds(null, 11), "no analysis: no way to tell");
    assertFalse(bounds("SHOW TABLES"));
    assertFalse(bounds("EXPLAIN SELECT 1"));
    assertFalse(bounds("DELETE FROM t"));
    assertFalse(bounds("SELECT a INTO @x FROM t"));
    assertFalse(bounds("SELECT 1; SELECT 2"));
  }
}
