package dev.sluice.engine.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which reads the PostgreSQL adapter may send without the session reset (the catalog part is in PgExecutorTest). */
class SessionNeutralReadsTest {

  private final SessionNeutralReads reads = new SessionNeutralReads();

  private static AnalysedStatement pg(String sql) {
    return SqlAnalyzer.analyseNow(PostgresEngine.INSTANCE.dialect(), sql);
  }

  @Test
  void aReadOfKnownPlainTablesIsNeutralUntilItsStandingIsOld() {
    AnalysedStatement a = pg("SELECT o.id, c.name FROM shop.orders o JOIN customers c ON c.id = o.customer_id"
        + " WHERE o.total >= 10 AND c.name <> 'x' ORDER BY 1");
    assertFalse(reads.neutral(a, 0), "nothing known yet");
    assertEquals(List.of("shop.orders", "customers"), reads.toLookUp(a, 0));
    reads.learned("shop.orders", true, 0);
    reads.learned("customers", true, 0);
    assertTrue(reads.neutral(a, 1_000));
    assertEquals(List.of(), reads.toLookUp(a, 1_000));
    assertFalse(reads.neutral(a, SessionNeutralReads.TTL_MS + 1), "looked up again after the TTL");
    assertEquals(List.of("shop.orders", "customers"), reads.toLookUp(a, SessionNeutralReads.TTL_MS + 1));
  }

  @Test
  void aViewOrAnUnknownNameIsNotNeutral() {
    reads.learned("v", false, 0);
    reads.learned("gone", null, 0);
    assertFalse(reads.neutral(pg("SELECT * FROM v"), 1));
    assertFalse(reads.neutral(pg("SELECT * FROM gone"), 1));
    assertTrue(reads.neutral(pg("SELECT 1 + 2, lower('A')"), 1), "no relation, allow-listed functions");
  }

  @Test
  void whatMayRunSomethingElseIsNeverACandidate() {
    reads.learned("t", true, 0);
    for (String sql : List.of(
        "SELECT a::text FROM t",                   // a cast: a domain's CHECK may call anything
        "SELECT CAST(a AS int) FROM t",
        "SELECT a ~ 'x' FROM t",                   // operators beyond the everyday ones
        "SELECT a OPERATOR(pg_catalog.+) 1 FROM t",
        "SELECT * FROM \"T\"",                       // a name that reads differently unquoted
        "EXPLAIN SELECT * FROM t",
        "SELECT * FROM t; SELECT 1")) {
      assertFalse(reads.neutral(pg(sql), 1), sql);
      assertEquals(List.of(), reads.toLookUp(pg(sql), 1), sql);
    }
    assertTrue(reads.neutral(pg("SELECT count(*) FROM t WHERE a != 1 OR b || 'x' = 'yx'"), 1));
    assertTrue(reads.neutral(pg("SELECT g FROM generate_series(1, 3) g, t"), 1), "an allow-listed table function");
  }
}
