package dev.sluice.sql.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.engine.mysql.MySqlDialect;
import dev.sluice.engine.postgres.PostgresDialect;
import dev.sluice.engine.sqlite.SqliteDialect;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The analysis is the boundary's one source of truth: these pin what it must see the way the
 * engine does (boundaries, decoded names) and what scoping must resolve (CTE shadowing, aliases
 * per level, whole-row references).
 */
class SqlAnalyzerTest {

  private static final SqlDialect PG = PostgresDialect.INSTANCE;
  private static final SqlDialect MY = MySqlDialect.INSTANCE;
  private static final SqlDialect LITE = SqliteDialect.INSTANCE;

  private static AnalysedStatement a(SqlDialect d, String sql) {
    return SqlAnalyzer.analyseNow(d, sql);
  }

  private static Set<String> relations(AnalysedStatement a) {
    return a.relations().stream().map(Relation::qualified).collect(Collectors.toSet());
  }

  private static Set<String> wholeRows(AnalysedStatement a) {
    return a.wholeRows().stream().map(i -> a.relations().get(i).name()).collect(Collectors.toSet());
  }

  /** Which relations a column named {@code name} may belong to. */
  private static Set<String> owners(AnalysedStatement a, String name) {
    return a.columns().stream().filter(c -> c.name().equalsIgnoreCase(name))
        .flatMap(c -> c.relations().stream()).map(i -> a.relations().get(i).name()).collect(Collectors.toSet());
  }

  @Test
  void statementBoundariesAreTheEnginesOwn() {
    // PostgreSQL: E'\'' is one quote; the ';' after it ends the first statement
    assertEquals("multiple_statements", a(PG, "SELECT E'\\''; DELETE FROM t").problem().rule());
    // ... and '\' is a whole string in standard_conforming_strings
    assertEquals("multiple_statements", a(PG, "SELECT 'a\\'; DELETE FROM t --'").problem().rule());
    // a line comment ends at \r as well
    assertEquals("multiple_statements", a(PG, "SELECT 1 -- x\r; DELETE FROM t").problem().rule());
    assertEquals("multiple_statements", a(PG, "SELECT $x$ ; $x$; DELETE FROM t").problem().rule());
    assertNull(a(PG, "SELECT $x$ ; $x$ /* a /* nested */ ; */").problem());
    // MySQL: "--" needs a space, so 1--1 is arithmetic and the ';' is real
    assertEquals("multiple_statements", a(MY, "SELECT 1--1; DELETE FROM t").problem().rule());
    // in MySQL '\'' ... the backslash escapes, so the ';' is inside the string
    assertNull(a(MY, "SELECT 'a\\'; DELETE FROM t -- '").problem());
    assertEquals("executable_comment", a(MY, "SELECT /*!50000 1; DELETE FROM t */ 1").problem().rule());
    // MySQL 8 optimizer hints that set session variables: the deadline and row cap are the gateway's
    assertEquals("optimizer_hint", a(MY, "SELECT /*+ SET_VAR(sql_select_limit=1000000) */ * FROM t").problem().rule());
    assertEquals("optimizer_hint", a(MY, "SELECT /*+ MAX_EXECUTION_TIME(0) */ * FROM t").problem().rule());
    assertNull(a(MY, "SELECT /*+ NO_INDEX_MERGE(t) */ * FROM t").problem());
    // elsewhere /*+ is a comment like any other
    assertNull(a(PG, "SELECT /*+ SET_VAR(x=1) */ 1").problem());
    assertEquals("control_character", a(MY, "SELECT 1 #x\u0000; DELETE FROM t").problem().rule());
    assertEquals("multiple_statements", a(LITE, "SELECT 'a\\'; DELETE FROM t").problem().rule());
  }

  @Test
  void namesAreDecodedBeforeAnyCheck() {
    AnalysedStatement u = a(PG, "SELECT U&\"\\0073et_config\"('a', 'b', false)");
    assertEquals("set_config", u.functions().get(0).name());
    AnalysedStatement esc = a(PG, "SELECT U&\"!0070g_read_file\" UESCAPE '!' ('x')");
    assertEquals("pg_read_file", esc.functions().get(0).name());
    assertEquals("set_config", a(PG, "SELECT pg_catalog.\"SET_CONFIG\"('a', 'b', false)").functions().get(0).name()
        .toLowerCase());
    assertEquals("payments", a(LITE, "SELECT * FROM 'payments'").relations().get(0).name());
    assertEquals("payments", a(LITE, "SELECT * FROM [payments]").relations().get(0).name());
    assertEquals("payments", a(MY, "SELECT * FROM `payments`").relations().get(0).name());
  }

  @Test
  void theGeometricTypePathIsATypeName() {
    // JSqlParser reads PATH as a keyword; before the respelling all three were "unparseable"
    for (String sql : List.of("SELECT route::path FROM trips", "SELECT CAST(route AS path) FROM trips",
        "SELECT route::pg_catalog.path FROM trips", "SELECT path FROM trips")) {
      AnalysedStatement a = a(PG, sql);
      assertNull(a.problem(), sql);
      assertEquals(Set.of("trips"), relations(a), sql);
    }
    assertEquals(Set.of("trips"), owners(a(PG, "SELECT PATH FROM trips"), "path"));
  }

  @Test
  void aCteShadowsOnlyInsideItsWith() {
    AnalysedStatement a = a(PG, "SELECT * FROM orders WHERE id IN (WITH payments AS (SELECT 1 AS id) "
        + "SELECT id FROM payments) AND EXISTS (SELECT 1 FROM payments)");
    assertEquals(Set.of("orders", "payments"), relations(a), "the second payments is the table");
    assertEquals(Set.of(), relations(a(PG, "WITH payments AS (SELECT 1 AS id) SELECT * FROM payments")));
    // without RECURSIVE a body cannot see its own name: there it is the table
    assertEquals(Set.of("payments"), relations(a(PG, "WITH payments AS (SELECT * FROM payments) SELECT 1")));
    assertEquals(Set.of("t"), relations(a(PG,
        "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r, t")));
  }

  @Test
  void anAliasBelongsToItsQueryLevel() {
    AnalysedStatement a = a(PG, "SELECT x.a FROM orders x WHERE EXISTS "
        + "(SELECT 1 FROM payments x WHERE x.card_number > '4')");
    assertEquals(Set.of("payments"), owners(a, "card_number"));
    assertEquals(Set.of("orders"), owners(a, "a"));
    // a correlated, unqualified column may come from any level around it
    assertEquals(Set.of("orders", "payments"), owners(a(PG,
        "SELECT id FROM orders WHERE EXISTS (SELECT 1 FROM payments WHERE card_number = 'x')"), "card_number"));
  }

  @Test
  void wholeRowReferencesExposeEveryColumn() {
    for (String sql : List.of("SELECT t FROM payments t", "SELECT row_to_json(t) FROM payments t",
        "SELECT t::text FROM payments t", "SELECT to_jsonb(t) FROM payments t", "TABLE payments",
        "SELECT DISTINCT ON (id) * FROM payments", "SELECT p.* FROM payments p",
        "SELECT json_agg(p.*) FROM payments p", "SELECT id FROM orders NATURAL JOIN payments",
        "SELECT payments FROM payments")) {
      assertTrue(wholeRows(a(PG, sql)).contains("payments"), sql);
    }
    for (String sql : List.of("SELECT SQL_NO_CACHE * FROM payments", "SELECT STRAIGHT_JOIN * FROM payments")) {
      assertTrue(wholeRows(a(MY, sql)).contains("payments"), sql);
    }
    assertEquals(Set.of("card_number"), a(PG, "SELECT (t).card_number FROM payments t").columns().stream()
        .map(ColumnUse::name).collect(Collectors.toSet()));
    // these expose no column of payments
    assertTrue(wholeRows(a(PG, "SELECT count(*) FROM payments")).isEmpty());
    assertTrue(wholeRows(a(PG, "SELECT id FROM orders o WHERE EXISTS (SELECT * FROM payments p "
        + "WHERE p.order_id = o.id)")).isEmpty());
    assertTrue(wholeRows(a(PG, "SELECT * FROM (SELECT id FROM payments) s")).isEmpty(),
        "a star over a derived table exposes what it selected, analysed there");
  }

  /** Found by the adversarial policy tests: each of these read customers.email or payments for a governed principal. */
  @Test
  void namesCompareAsTheEngineResolvesThem() {
    // PostgreSQL "C" and c (and MySQL C and c) are two aliases: c.* is customers
    assertEquals(Set.of("customers"), wholeRows(a(PG, "SELECT c.* FROM customers c, orders \"C\"")));
    assertEquals(Set.of("customers"), wholeRows(a(PG, "SELECT row_to_json(c) FROM customers c, orders \"C\"")));
    assertEquals(Set.of("customers"), wholeRows(a(MY, "SELECT c.* FROM customers c, orders C")));
    // a quoted CTE name in other case does not shadow the table
    assertEquals(Set.of("payments"), relations(a(PG, "WITH \"PAYMENTS\" AS (SELECT 1 AS id) SELECT * FROM payments")));
    assertEquals(Set.of(), relations(a(PG, "WITH Payments AS (SELECT 1 AS id) SELECT * FROM PAYMENTS")));
    // where the engine ignores case the name counts as the table: refused, never missed
    assertEquals(Set.of("payments"), relations(a(MY, "WITH PAYMENTS AS (SELECT 1 AS id) SELECT * FROM payments")));
    assertEquals(Set.of("customers"), wholeRows(a(LITE, "SELECT C.* FROM customers c")));
    // FROM t AS a(x, y, z) renames t's columns by position: t is read whole
    assertEquals(Set.of("customers"), wholeRows(a(PG, "SELECT e FROM customers AS c(i, n, e)")));
    // so does a join alias: j is a whole row of both tables, and j(a, b, e) renames their columns
    assertEquals(Set.of("customers", "orders"), wholeRows(a(PG,
        "SELECT row_to_json(j) FROM (customers JOIN orders USING (id)) AS j")));
    assertEquals(Set.of("customers", "orders"), wholeRows(a(PG,
        "SELECT e FROM (customers c JOIN orders o ON c.id = o.id) AS t(a, b, e)")));
  }

  @Test
  void everyClauseIsSearched() {
    AnalysedStatement a = a(PG, "SELECT count(*) FILTER (WHERE card_number > '1') OVER (PARTITION BY cvv "
        + "ORDER BY expiry) FROM payments WHERE amount = ANY (SELECT amount FROM refunds)");
    Set<String> cols = a.columns().stream().map(ColumnUse::name).collect(Collectors.toSet());
    assertTrue(cols.containsAll(Set.of("card_number", "cvv", "expiry", "amount")), cols.toString());
    assertEquals(Set.of("payments", "refunds"), relations(a));
    AnalysedStatement nested = a(MY, "SELECT BIT_OR(1 << (MONTH(d) - 1)), ELT(1 + (COUNT(*) > 5), 'a') FROM t");
    assertNull(nested.problem(), () -> nested.problem().message());
    Set<String> fns = nested.functions().stream().map(FunctionCall::name).collect(Collectors.toSet());
    assertTrue(fns.containsAll(Set.of("bit_or", "month", "elt", "count")), fns.toString());
  }

  @Test
  void aCallTheParserDidNotPlaceIsRefused() {
    // every name followed by "(" must be a call, alias, CTE, type or table the analysis knows
    AnalysedStatement ok = a(PG, "SELECT g.x FROM generate_series(1, 3) AS g(x)");
    assertNull(ok.problem());
    AnalysedStatement cast = a(PG, "SELECT CAST(total AS numeric(10, 2)), total::varchar(20) FROM orders");
    assertNull(cast.problem());
  }

  @Test
  void limitsHoldBeforeAndDuringWork() {
    assertEquals("too_long", a(PG, "SELECT 1" + " ".repeat(SqlAnalyzer.MAX_SQL_CHARS)).problem().rule());
    assertEquals("too_deep", a(PG, "SELECT " + "(".repeat(SqlAnalyzer.MAX_NESTING + 5) + "1"
        + ")".repeat(SqlAnalyzer.MAX_NESTING + 5)).problem().rule());
    StringBuilder or = new StringBuilder("SELECT 1 FROM t WHERE a = 0");
    for (int i = 0; i < 3_000; i++) {
      or.append(" OR a = ").append(i);
    }
    AnalysedStatement chain = a(PG, or.toString());
    // a long OR chain is analysed (or refused as too complex), never a StackOverflowError
    assertTrue(chain.problem() == null || chain.problem().rule().equals("too_complex"));
  }

  @Test
  void fingerprintsIgnoreLiteralsCommentsAndLayout() {
    String x = "SELECT *  FROM orders WHERE status = 'paid' AND total > 10 -- big ones\n LIMIT 5;";
    String y = "select * from orders\nwhere status = 'shipped' and total > 250.5 /* other */ limit 100";
    assertEquals(a(PG, x).fingerprint(), a(PG, y).fingerprint());
    assertNotEquals(a(PG, x).fingerprint(), a(PG, "SELECT * FROM payments WHERE status = 'paid'").fingerprint());
    assertNotEquals(a(PG, "SELECT \"Total\" FROM t").fingerprint(), a(PG, "SELECT \"total\" FROM t").fingerprint());
  }

  @Test
  void qualifiedCallsReachOnlyBuiltIns() {
    assertNull(dev.sluice.sql.guard.ReadGuard.check(a(PG, "SELECT pg_catalog.lower('A')")));
    assertEquals("function_not_allowed", dev.sluice.sql.guard.ReadGuard.check(a(PG, "SELECT public.lower('A')"))
        .rule());
    assertEquals("function_not_allowed", dev.sluice.sql.guard.ReadGuard.check(a(MY, "SELECT test.lower('A')"))
        .rule());
  }

  @Test
  void explainCarriesTheExplainedStatement() {
    AnalysedStatement e = a(PG, "EXPLAIN (ANALYZE, FORMAT JSON) SELECT * FROM payments");
    assertEquals(StatementKind.EXPLAIN, e.kind());
    assertTrue(e.analyze());
    assertNotNull(e.explained());
    assertEquals(Set.of("payments"), relations(e.reading()));
    assertFalse(a(PG, "EXPLAIN (ANALYZE false) SELECT 1").analyze());
    assertEquals("explain_connection", a(MY, "EXPLAIN FOR CONNECTION 5").problem().rule());
    assertEquals(StatementKind.DESCRIBE, a(MY, "DESCRIBE payments").kind());
  }
}
