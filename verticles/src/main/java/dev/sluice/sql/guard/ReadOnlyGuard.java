package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import net.sf.jsqlparser.statement.DescribeStatement;
import net.sf.jsqlparser.statement.ExplainStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Decides, before any engine sees it, whether a statement is one read-only query. Two layers: a
 * dialect-aware token pass ({@link SqlTokens}) that refuses what must never run wherever it hides
 * (writes, INTO, locking reads, forbidden functions, a second statement, MySQL executable
 * comments), then JSqlParser, which must read the statement as a query. Text the parser cannot
 * read is refused. Thread-safe; never throws.
 */
public final class ReadOnlyGuard {

  /** Longer statements are refused: no analytical query needs more, and parsing is superlinear. */
  public static final int MAX_SQL_CHARS = 100_000;
  /** Statements up to this size are checked on the caller's thread; larger ones on a worker. */
  static final int INLINE_CHECK_CHARS = 4_000;

  private static final Pattern SQLITE_PRAGMA = Pattern.compile(
      "(?is)\\s*pragma\\s+(\\w+\\.)?(table_info|table_xinfo|index_list|index_info|index_xinfo|foreign_key_list)"
          + "\\s*\\(\\s*('[^']*'|\"[^\"]*\"|\\w+)\\s*\\)\\s*");
  private static final Pattern MYSQL_SHOW = Pattern.compile(
      "(?is)\\s*show\\s+(full\\s+)?(tables|columns|fields|index|indexes|keys|databases|schemas|table\\s+status"
          + "|create\\s+table|create\\s+view)\\b.*");
  private static final Set<String> WRITE_WORDS = Set.of("insert", "update", "delete", "merge", "upsert");

  private static final int CACHE_SIZE = 2_048;
  private static final Map<String, GuardVerdict> CACHE = new LinkedHashMap<>(CACHE_SIZE, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, GuardVerdict> e) {
      return size() > CACHE_SIZE;
    }
  };

  private ReadOnlyGuard() {}

  /**
   * Checks a statement without blocking an event loop: small statements inline, large ones on a
   * worker thread. Agents repeat statements, so verdicts are cached by dialect and text.
   */
  public static Future<GuardVerdict> check(Vertx vertx, Dialect dialect, String sql) {
    if (sql == null || sql.length() <= INLINE_CHECK_CHARS) {
      return Future.succeededFuture(check(dialect, sql));
    }
    return vertx.executeBlocking(() -> check(dialect, sql), false);
  }

  public static GuardVerdict check(Dialect dialect, String sql) {
    if (sql == null) {
      return refuseEmpty();
    }
    String key = dialect.name() + ':' + sql;
    synchronized (CACHE) {
      GuardVerdict hit = CACHE.get(key);
      if (hit != null) {
        return hit;
      }
    }
    GuardVerdict v;
    try {
      v = decide(dialect, sql);
    } catch (RuntimeException | StackOverflowError e) {
      v = GuardVerdict.refuse("unparseable", "the statement could not be analysed ("
          + e.getClass().getSimpleName() + ")", "Simplify the statement.");
    }
    synchronized (CACHE) {
      CACHE.put(key, v);
    }
    return v;
  }

  private static GuardVerdict decide(Dialect dialect, String sql) {
    if (sql.length() > MAX_SQL_CHARS) {
      return GuardVerdict.refuse("too_long", "the statement has " + sql.length() + " characters; the limit is "
          + MAX_SQL_CHARS, "Send a shorter query; aggregate in SQL rather than listing values.");
    }
    SqlTokens t = SqlTokens.scan(sql, dialect);
    if (t.executableComment && dialect == Dialect.MYSQL) {
      return GuardVerdict.refuse("executable_comment", "MySQL executable comments (/*! ... */) run code the "
          + "guard cannot see", "Remove the /*! ... */ comment; write plain SQL.");
    }
    if (t.unterminated) {
      return GuardVerdict.refuse("unparseable", "a string literal, quoted identifier or comment is not closed",
          "Close every quote and comment.");
    }
    if (t.tokens.isEmpty()) {
      return refuseEmpty();
    }
    List<SqlTokens.Token> tk = t.tokens;
    int end = tk.size();
    while (end > 0 && tk.get(end - 1).text().equals(";") && tk.get(end - 1).type() == SqlTokens.Type.SYMBOL) {
      end--;
    }
    for (int i = 0; i < end; i++) {
      if (tk.get(i).type() == SqlTokens.Type.SYMBOL && tk.get(i).text().equals(";")) {
        return GuardVerdict.refuse("multiple_statements", "only one statement may be sent; found more after the ';'"
            + " at character " + (tk.get(i).start() + 1), "Send each query as its own call, without ';' between them.");
      }
    }
    if (end == 0) {
      return refuseEmpty();
    }
    // from the first code token to the last one: trailing ';' and comments around are dropped
    String cleaned = sql.substring(tk.get(0).start(), tk.get(end - 1).end());
    List<SqlTokens.Token> code = tk.subList(0, end);

    GuardVerdict kind = StatementKinds.firstWord(dialect, code);
    if (kind != null) {
      return kind;
    }
    GuardVerdict scanned = scan(dialect, code);
    if (scanned != null) {
      return scanned;
    }
    String first = code.get(0).text().toLowerCase(Locale.ROOT);
    if (dialect == Dialect.SQLITE && first.equals("pragma")) {
      return SQLITE_PRAGMA.matcher(cleaned).matches() ? GuardVerdict.allow(cleaned)
          : GuardVerdict.refuse("pragma", "only the read-only PRAGMAs table_info, table_xinfo, index_list, index_info,"
              + " index_xinfo and foreign_key_list (with a table argument) are allowed",
              "Use PRAGMA table_info('t'), or query sqlite_master / pragma_table_info('t').");
    }
    if (dialect == Dialect.MYSQL && first.equals("show")) {
      return MYSQL_SHOW.matcher(cleaned).matches() ? GuardVerdict.allow(cleaned)
          : GuardVerdict.refuse("show", "only SHOW TABLES, COLUMNS, INDEX, DATABASES, TABLE STATUS and SHOW CREATE "
              + "TABLE/VIEW are allowed", "Query information_schema instead.");
    }
    if (dialect == Dialect.SQLITE && first.equals("explain") && code.size() > 2 && code.get(1).is("query")
        && code.get(2).is("plan")) {
      if (code.size() < 4) {
        return refuseEmpty();
      }
      GuardVerdict inner = check(dialect, cleaned.substring(code.get(3).start() - tk.get(0).start()));
      return inner.allowed() ? GuardVerdict.allow(cleaned) : inner;
    }
    // MySQL's EXPLAIN FORMAT=JSON|TREE|TRADITIONAL: the parser does not read the option, so the
    // explained statement is checked on its own, like SQLite's EXPLAIN QUERY PLAN above.
    if (dialect == Dialect.MYSQL && first.equals("explain") && code.size() > 4 && code.get(1).is("format")
        && code.get(2).text().equals("=")) {
      GuardVerdict inner = check(dialect, cleaned.substring(code.get(4).start() - tk.get(0).start()));
      return inner.allowed() ? GuardVerdict.allow(cleaned) : inner;
    }
    GuardVerdict parsed = parse(dialect, parserView(dialect, cleaned));
    return parsed.allowed() ? GuardVerdict.allow(cleaned) : parsed;
  }

  /**
   * The text handed to the parser: SQLite's GLOB operator, which JSqlParser 5.4 does not know, is
   * read as LIKE. Both are plain predicates, so the substitution cannot change whether the
   * statement only reads; the original text is what runs.
   */
  private static String parserView(Dialect dialect, String sql) {
    if (dialect != Dialect.SQLITE) {
      return sql;
    }
    StringBuilder b = new StringBuilder(sql);
    List<SqlTokens.Token> tokens = SqlTokens.scan(sql, dialect).tokens;
    for (int i = tokens.size() - 1; i >= 0; i--) {
      SqlTokens.Token tok = tokens.get(i);
      if (tok.is("glob")) {
        b.replace(tok.start(), tok.end(), "LIKE");
      }
    }
    return b.toString();
  }

  /** Token-level refusals: they hold whether or not the parser understands the rest. */
  private static GuardVerdict scan(Dialect dialect, List<SqlTokens.Token> code) {
    for (int i = 0; i < code.size(); i++) {
      SqlTokens.Token tok = code.get(i);
      String w = tok.text().toLowerCase(Locale.ROOT);
      boolean call = i + 1 < code.size() && code.get(i + 1).text().equals("(")
          && (tok.type() == SqlTokens.Type.WORD || tok.type() == SqlTokens.Type.QUOTED);
      if (call) {
        String why = ForbiddenFunctions.why(dialect, w);
        if (why != null) {
          return GuardVerdict.refuse("forbidden_function", "function " + tok.text() + "() is not allowed: it " + why,
              "Remove the call to " + tok.text() + "(); only plain reads can run here.");
        }
      }
      if (tok.type() != SqlTokens.Type.WORD) {
        continue;
      }
      if (w.equals("update") || w.equals("share")) {
        if (i > 0 && (code.get(i - 1).is("for") || code.get(i - 1).is("key") || code.get(i - 1).is("no"))) {
          return GuardVerdict.refuse("locking_read", "locking reads (FOR " + tok.text().toUpperCase(Locale.ROOT)
              + ") take row locks", "Drop the FOR UPDATE / FOR SHARE clause.");
        }
      }
      if (w.equals("lock") && i + 2 < code.size() && code.get(i + 1).is("in") && code.get(i + 2).is("share")) {
        return GuardVerdict.refuse("locking_read", "LOCK IN SHARE MODE takes row locks", "Drop the LOCK IN SHARE MODE clause.");
      }
      if (WRITE_WORDS.contains(w) && !(i > 0 && code.get(i - 1).text().equals("."))) {
        return GuardVerdict.refuse("data_modifying_statement", tok.text().toUpperCase(Locale.ROOT)
            + " modifies data (also inside a WITH clause or EXPLAIN ANALYZE)",
            "Only SELECT can run here; if a column is named " + tok.text() + ", quote it.");
      }
      if (w.equals("into")) {
        return GuardVerdict.refuse("select_into", "SELECT ... INTO writes a table, a file or variables",
            "Remove the INTO clause; the rows come back in the result.");
      }
    }
    return null;
  }

  private static GuardVerdict parse(Dialect dialect, String sql) {
    Statement st;
    try {
      st = SqlParsing.statement(dialect, sql);
    } catch (Exception | Error e) {
      String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().split("\n")[0];
      return new GuardVerdict(false, sql, "unparseable", "the SQL parser could not read the statement: " + m,
          "Check the syntax near the reported position; if it is valid " + dialect.name().toLowerCase(Locale.ROOT)
              + " SQL, rewrite that part with more common syntax (e.g. CAST(x AS type) instead of x::type).");
    }
    if (st instanceof Select select) {
      if (select.getWithItemsList() != null) {
        for (WithItem<?> item : select.getWithItemsList()) {
          if (!(item.getSelect() instanceof ParenthesedSelect) && item.getSelect() != null) {
            return GuardVerdict.refuse("data_modifying_cte", "WITH " + item.getAlias() + " does not hold a SELECT",
                "Every WITH item must be a SELECT.");
          }
        }
      }
      return GuardVerdict.allow(sql);
    }
    if (st instanceof ExplainStatement || st instanceof DescribeStatement) {
      return GuardVerdict.allow(sql);
    }
    return GuardVerdict.refuse("not_read_only", st.getClass().getSimpleName().replace("Statement", "")
        + " statements are not read-only queries", "Send one SELECT (or WITH ... SELECT) statement.");
  }

  private static GuardVerdict refuseEmpty() {
    return GuardVerdict.refuse("empty", "the statement is empty (or only comments)", "Send one SELECT statement.");
  }
}
