package dev.sluice.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.analysis.LexRules;
import dev.sluice.sql.analysis.SqlLexer;
import dev.sluice.sql.analysis.Token;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The engines' function allow-lists (src/main/resources/dev/sluice/engine/&lt;engine&gt;/functions.txt):
 * each parses; everything the old deny list refuses stays "never"; no allowed name looks like a
 * dangerous one; catalog and tableref names are refused to governed principals only; and every
 * function the benign corpora call is allowed, with every category an analyst can use called at
 * least once.
 */
class FunctionListsTest {

  /** Name beginnings that must never be allowed, on any engine. */
  private static final List<String> DANGEROUS_PREFIXES = List.of("pg_read", "pg_ls_", "lo_", "dblink", "pg_advisory",
      "pg_try_advisory", "set_config", "pg_terminate", "pg_cancel", "query_to_xml", "cursor_to_xml", "load_file",
      "get_lock", "load_extension", "writefile", "readfile");

  /**
   * Words followed by "(" that are syntax, not calls: clause and operator keywords, the constructors
   * CAST/ROW/ARRAY, and the engines' words before a parenthesised list (index hints, partitions,
   * MEMBER OF, TABLESAMPLE ... REPEATABLE).
   */
  private static final Set<String> NOT_CALLS = Set.of("in", "exists", "values", "as", "over", "filter", "using", "on",
      "any", "all", "some", "array", "row", "cast", "lateral", "not", "and", "or", "select", "from", "where", "join",
      "by", "having", "then", "else", "when", "case", "limit", "offset", "union", "intersect", "except", "distinct",
      "between", "like", "ilike", "is", "with", "recursive", "sets", "rollup", "cube", "group", "within",
      "materialized", "table", "key", "index", "partition", "columns", "returning", "into", "explain", "analyze",
      "of", "set", "for", "window", "rows", "range", "groups", "repeatable", "tablesample", "ordinality", "escape",
      "return", "returns");

  static LexRules lexRules(Dialect d) {
    return switch (d) {
      case POSTGRES -> new LexRules(false, false, false, false, true, false, false, false, true, true, true, "\n\r");
      case MYSQL -> new LexRules(true, true, true, false, false, true, true, true, false, false, false, "\n");
      case SQLITE -> new LexRules(false, false, true, true, false, false, false, false, false, false, false, "\n");
    };
  }

  static String engine(Dialect d) {
    return d.name().toLowerCase(Locale.ROOT);
  }

  static FunctionRules load(Dialect d) throws IOException {
    String path = "/dev/sluice/engine/" + engine(d) + "/functions.txt";
    try (InputStream in = FunctionListsTest.class.getResourceAsStream(path)) {
      assertNotNull(in, path + " is on the classpath");
      return FunctionRules.parse(path, in);
    }
  }

  /** Every name in the file, allowed (by category) or never. */
  static Set<String> allNames(FunctionRules rules) {
    Set<String> all = new TreeSet<>(rules.neverNames());
    for (String c : FunctionRules.CATEGORIES) {
      if (!c.equals("never")) {
        all.addAll(rules.names(c));
      }
    }
    return all;
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void parsesWithSeveralCategoriesAndANeverList(Dialect d) throws IOException {
    FunctionRules rules = load(d);
    Map<String, Integer> counts = new TreeMap<>();
    for (String c : FunctionRules.CATEGORIES) {
      if (!c.equals("never") && !rules.names(c).isEmpty()) {
        counts.put(c, rules.names(c).size());
      }
    }
    System.out.println(d + ": " + rules.size() + " allowed " + counts + ", " + rules.neverNames().size() + " never");
    assertTrue(rules.size() > 150, "a real list for " + d);
    assertTrue(counts.keySet().containsAll(Set.of("aggregate", "window", "math", "string", "datetime", "json")),
        d + " covers the everyday categories: " + counts.keySet());
    assertFalse(rules.neverNames().isEmpty());
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void whatTheOldDenyListRefusesIsNever(Dialect d) throws Exception {
    FunctionRules rules = load(d);
    List<String> wrong = new ArrayList<>();
    for (String name : oldDenyNames(d)) {
      if (!rules.never(name)) {
        wrong.add(name + " is refused today but not never");
      }
    }
    // the old prefixes (lo_, pg_ls_, pg_stat_reset ...): every listed name they catch
    for (String name : allNames(rules)) {
      if (ForbiddenFunctions.why(d, name) != null && !rules.never(name)) {
        wrong.add(name + " matches the old deny list but is " + rules.of(name, false).category());
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  /** The exact names of the old deny list (ForbiddenFunctions keeps them private until it goes). */
  @SuppressWarnings("unchecked")
  private static Set<String> oldDenyNames(Dialect d) throws Exception {
    Field f = ForbiddenFunctions.class.getDeclaredField(d.name());
    f.setAccessible(true);
    return (Set<String>) f.get(null);
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void noAllowedNameLooksDangerous(Dialect d) throws IOException {
    FunctionRules rules = load(d);
    List<String> wrong = new ArrayList<>();
    for (String name : allNames(rules)) {
      boolean dangerous = DANGEROUS_PREFIXES.stream().anyMatch(name::startsWith);
      if (dangerous && !rules.never(name)) {
        wrong.add(name + " (" + rules.of(name, false).category() + ")");
      }
    }
    assertTrue(wrong.isEmpty(), "allowed but dangerous: " + wrong);
    for (String name : rules.neverNames()) {
      assertFalse(rules.of(name, false).allowed(), name);
      assertFalse(rules.of(name.toUpperCase(Locale.ROOT), true).allowed(), name);
      assertEquals("never", rules.of(name, false).category());
    }
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void catalogAndTablerefAreForUngovernedPrincipalsOnly(Dialect d) throws IOException {
    FunctionRules rules = load(d);
    for (String c : FunctionRules.CATEGORIES) {
      if (c.equals("never")) {
        continue;
      }
      boolean governedToo = !FunctionRules.GOVERNED_NEVER.contains(c);
      for (String name : rules.names(c)) {
        FunctionRules.Verdict open = rules.of(name, false);
        FunctionRules.Verdict governed = rules.of(name, true);
        assertTrue(open.allowed(), name);
        assertEquals(c, open.category());
        assertEquals(governedToo, governed.allowed(), name + " (" + c + ") for a governed principal");
        if (!governedToo) {
          assertNotNull(governed.why());
        }
      }
    }
    assertFalse(rules.of("surely_not_a_function", false).allowed());
  }

  @Test
  void theDangerousFunctionsTheIssueNamesAreRefused() throws IOException {
    FunctionRules pg = load(Dialect.POSTGRES);
    for (String n : List.of("pg_read_file", "pg_read_binary_file", "pg_stat_file", "pg_ls_dir", "lo_import",
        "lo_export", "loread", "query_to_xml", "cursor_to_xml", "ts_stat", "ts_rewrite", "dblink", "dblink_exec",
        "xpath_table", "set_config", "pg_reload_conf", "pg_advisory_lock", "pg_try_advisory_xact_lock",
        "pg_terminate_backend", "pg_cancel_backend", "pg_notify", "nextval", "setval", "txid_current",
        "pg_current_xact_id", "pg_switch_wal", "pg_create_restore_point", "pg_drop_replication_slot", "pg_promote",
        "pg_logical_emit_message", "pg_replication_origin_create", "pg_backup_start", "pg_start_backup",
        "pg_stop_backup", "pg_export_snapshot", "pg_import_system_collations", "pg_stat_reset", "pg_rotate_logfile",
        "pg_file_write", "setseed")) {
      assertTrue(pg.never(n), n);
    }
    for (String n : List.of("table_to_xml", "schema_to_xml", "database_to_xml", "to_regclass", "pg_get_viewdef",
        "pg_stat_get_activity", "pg_total_relation_size", "has_table_privilege", "current_schemas")) {
      assertFalse(pg.of(n, true).allowed(), n + " governed");
      assertTrue(pg.of(n, false).allowed(), n);
    }
    for (String n : List.of("pg_sleep", "pg_sleep_for", "pg_sleep_until", "currval", "lastval", "current_setting",
        "version", "coalesce", "greatest", "grouping", "xmlelement", "xmlserialize")) {
      assertTrue(pg.of(n, true).allowed(), n);
    }
    FunctionRules my = load(Dialect.MYSQL);
    for (String n : List.of("get_lock", "release_lock", "release_all_locks", "is_free_lock", "is_used_lock",
        "load_file", "sys_exec", "sys_eval", "nextval", "setval", "lastval", "master_pos_wait", "source_pos_wait",
        "master_gtid_wait", "last_insert_id", "wsrep_sync_wait_upto_gtid", "wsrep_last_seen_gtid")) {
      assertTrue(my.never(n), n);
    }
    for (String n : List.of("sleep", "benchmark", "json_table", "row_number", "lag", "first_value", "database")) {
      assertTrue(my.of(n, true).allowed(), n);
    }
    FunctionRules lite = load(Dialect.SQLITE);
    for (String n : List.of("load_extension", "writefile", "readfile", "edit", "fts3_tokenizer", "sqlite_dbpage")) {
      assertTrue(lite.never(n), n);
    }
    for (String n : List.of("dbstat", "pragma_table_info", "sqlite_compileoption_get")) {
      assertFalse(lite.of(n, true).allowed(), n + " governed");
      assertTrue(lite.of(n, false).allowed(), n);
    }
    for (String n : List.of("json_each", "json_tree", "printf", "strftime", "sqlite_version")) {
      assertTrue(lite.of(n, true).allowed(), n);
    }
  }

  /**
   * Categories the benign corpora need not call: no analyst habit or demo table for them. Everything
   * else the list allows must be called at least once.
   */
  private static final Map<Dialect, Map<String, String>> UNCALLED = Map.of(
      Dialect.POSTGRES, Map.of(
          "tableref", "it dumps whole tables named in strings",
          "sequence", "currval and lastval need nextval in the same session, and nextval is never"),
      Dialect.MYSQL, Map.of(
          "textsearch", "MATCH ... AGAINST needs a FULLTEXT index the demo tables do not have",
          "catalog", "MariaDB 10.11 has none of these MySQL 8 functions"),
      Dialect.SQLITE, Map.of(
          "textsearch", "the FTS functions need a full-text table the demo does not have",
          "tableref", "rtreecheck needs an R*Tree table"));

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void everyFunctionTheBenignCorporaCallIsAllowed(Dialect d) throws IOException {
    FunctionRules rules = load(d);
    List<String> refused = new ArrayList<>();
    Map<String, Set<String>> called = new TreeMap<>();
    int calls = 0;
    for (GuardCorpus.Entry e : GuardCorpus.accept(d)) {
      for (String name : calls(lexRules(d), e.sql())) {
        calls++;
        FunctionRules.Verdict v = rules.of(name, false);
        if (v.allowed()) {
          called.computeIfAbsent(v.category(), k -> new TreeSet<>()).add(name);
        } else {
          refused.add(name + " (" + v.why() + ")\n    " + e.sql());
        }
      }
    }
    System.out.println(d + ": the benign corpora make " + calls + " calls; by category " + called);
    assertTrue(refused.isEmpty(), "functions the benign corpora call that the list refuses:\n"
        + String.join("\n", refused));
    Set<String> missing = new TreeSet<>();
    for (String c : FunctionRules.CATEGORIES) {
      if (!c.equals("never") && !rules.names(c).isEmpty() && !called.containsKey(c)
          && !UNCALLED.get(d).containsKey(c)) {
        missing.add(c);
      }
    }
    assertTrue(missing.isEmpty(), d + ": no benign query calls a function of " + missing);
  }

  @Test
  void theCallFinderSeesCallsAndSkipsSyntax() {
    assertEquals(List.of("count", "lower"), calls(lexRules(Dialect.POSTGRES),
        "WITH n(i) AS (SELECT 1) SELECT count(*) AS c, pg_catalog.lower(\"x\") FROM n WHERE i IN (1) "
            + "AND EXISTS (SELECT 1) AND x::numeric(10,2) > CAST(1 AS numeric(3,1))"));
    assertEquals(List.of("json_table", "lower"), calls(lexRules(Dialect.MYSQL),
        "SELECT * FROM JSON_TABLE('[]', '$[*]' COLUMNS (d VARCHAR(20) PATH '$.d')) AS j WHERE `lower`(d) = 'x'"));
    assertEquals(List.of("set_config"), calls(lexRules(Dialect.POSTGRES), "SELECT U&\"\\0073et_config\"('a','b',false)"));
    assertEquals(List.of(), calls(lexRules(Dialect.SQLITE), "PRAGMA table_info('orders')"));
  }

  /**
   * The names a statement calls: a WORD or quoted identifier followed by "(", lower-cased, minus
   * syntax (see {@link #NOT_CALLS}), type modifiers after AS or ::, a CTE's or alias's column list,
   * PRAGMA arguments, and JSON_TABLE/XMLTABLE column definitions.
   */
  static List<String> calls(LexRules rules, String sql) {
    List<Token> t = SqlLexer.lex(rules, sql).tokens();
    List<String> out = new ArrayList<>();
    int columnsUntil = -1;
    for (int i = 0; i + 1 < t.size(); i++) {
      Token name = t.get(i);
      if (!name.isName() || !t.get(i + 1).isSymbol('(') || i < columnsUntil) {
        continue;
      }
      String n = name.kind() == Token.Kind.WORD ? name.text().toLowerCase(Locale.ROOT)
          : name.value().toLowerCase(Locale.ROOT);
      if (name.kind() == Token.Kind.WORD && n.equals("columns")) {
        columnsUntil = close(t, i + 1);
      }
      if (name.kind() == Token.Kind.WORD && NOT_CALLS.contains(n) || afterTypeContext(t, i)
          || cteColumns(t, i)) {
        continue;
      }
      out.add(n);
    }
    return out;
  }

  private static boolean afterTypeContext(List<Token> t, int i) {
    if (i == 0) {
      return false;
    }
    Token p = t.get(i - 1);
    return p.is("as") || p.is("pragma") || p.is("tablesample")
        || p.isSymbol(':') && i >= 2 && t.get(i - 2).isSymbol(':');
  }

  /** {@code name (cols) AS (} / {@code AS NOT MATERIALIZED (} / {@code AS MATERIALIZED (}: a CTE. */
  private static boolean cteColumns(List<Token> t, int i) {
    int after = close(t, i + 1) + 1;
    if (after >= t.size() || !t.get(after).is("as") || after + 1 >= t.size()) {
      return false;
    }
    Token next = t.get(after + 1);
    return next.isSymbol('(') || next.is("not") || next.is("materialized");
  }

  /** Index of the ")" closing the "(" at {@code open}, or the last token. */
  private static int close(List<Token> t, int open) {
    int depth = 0;
    for (int j = open; j < t.size(); j++) {
      if (t.get(j).isSymbol('(')) {
        depth++;
      } else if (t.get(j).isSymbol(')') && --depth == 0) {
        return j;
      }
    }
    return t.size() - 1;
  }
}
