package dev.sluice.sql.analysis;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.parser.ParseException;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.Statements;
import net.sf.jsqlparser.statement.alter.Alter;
import net.sf.jsqlparser.statement.create.index.CreateIndex;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.view.CreateView;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.merge.Merge;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.truncate.Truncate;
import net.sf.jsqlparser.statement.update.Update;

/**
 * Turns SQL text into one {@link AnalysedStatement}: size cap first, then the engine's lexer,
 * statement boundaries, EXPLAIN unwrapping, JSqlParser on the canonical re-spelling under a
 * deadline, and the scoped facts. The lexer and the parser must agree on how many statements
 * there are and what kind the statement is; where they do not, the statement is refused. Analysis
 * runs on a small pool of big-stack threads, never on an event loop; results are cached by engine
 * and text, so an agent repeating a statement pays nothing.
 */
public final class SqlAnalyzer {

  /** Longer statements are refused before any work: no analytical query needs more. */
  public static final int MAX_SQL_CHARS = 100_000;
  /** Parentheses nested deeper than this are refused: parsers recurse on them. */
  public static final int MAX_NESTING = 200;
  /** How long the parser may take over one statement. */
  public static final long PARSE_DEADLINE_MS = 3_000;
  /** Statements up to this size are cached (a cache of large statements would hold megabytes). */
  static final int CACHE_MAX_CHARS = 8_000;
  private static final int CACHE_SIZE = 4_096;

  private static final Map<String, AnalysedStatement> CACHE = new LinkedHashMap<>(CACHE_SIZE, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, AnalysedStatement> e) {
      return size() > CACHE_SIZE;
    }
  };

  private static final AtomicInteger THREADS = new AtomicInteger();
  /** Deep expressions need deep stacks: these threads get 64 MiB. */
  private static final ThreadPoolExecutor POOL = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS,
      new ArrayBlockingQueue<>(1_024), r -> {
        Thread t = new Thread(null, r, "sluice-sql-analysis-" + THREADS.incrementAndGet(), 64L << 20);
        t.setDaemon(true);
        return t;
      });
  private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "sluice-sql-analysis-deadline");
    t.setDaemon(true);
    return t;
  });

  private SqlAnalyzer() {}

  /**
   * Analyses off the event loop; completes on the caller's context. A cached statement answers at
   * once. Fails only with {@code busy} when the analysis pool is saturated.
   */
  public static Future<AnalysedStatement> analyse(Vertx vertx, SqlDialect dialect, String sql) {
    AnalysedStatement hit = cached(dialect, sql);
    if (hit != null) {
      return Future.succeededFuture(hit);
    }
    Context ctx = vertx.getOrCreateContext();
    Promise<AnalysedStatement> p = Promise.promise();
    try {
      POOL.execute(() -> {
        AnalysedStatement a = analyseNow(dialect, sql);
        ctx.runOnContext(v -> p.complete(a));
      });
    } catch (RejectedExecutionException full) {
      return Future.failedFuture(new SqlError(ErrorType.BUSY, "too many statements are waiting to be analysed")
          .with("retryAfterMs", 500));
    }
    return p.future();
  }

  /** Analyses on the calling thread (a worker, a test); never call it on an event loop. */
  public static AnalysedStatement analyseNow(SqlDialect dialect, String sql) {
    AnalysedStatement hit = cached(dialect, sql);
    if (hit != null) {
      return hit;
    }
    AnalysedStatement a;
    try {
      a = analyseText(dialect, sql == null ? "" : sql);
    } catch (StackOverflowError | RuntimeException e) {
      a = refused(dialect, sql == null ? "" : sql, List.of(), Refusal.of("too_complex",
          "the statement is too complex to analyse (" + e.getClass().getSimpleName() + ")",
          "Simplify it: fewer nested expressions, or IN (...) instead of long OR chains."));
    }
    if (sql != null && sql.length() <= CACHE_MAX_CHARS) {
      synchronized (CACHE) {
        CACHE.put(key(dialect, sql), a);
      }
    }
    return a;
  }

  private static AnalysedStatement cached(SqlDialect dialect, String sql) {
    if (sql == null || sql.length() > CACHE_MAX_CHARS) {
      return null;
    }
    synchronized (CACHE) {
      return CACHE.get(key(dialect, sql));
    }
  }

  private static String key(SqlDialect dialect, String sql) {
    return dialect.name() + '\u0000' + sql;
  }

  private static AnalysedStatement analyseText(SqlDialect dialect, String sql) {
    if (sql.length() > MAX_SQL_CHARS) {
      return refused(dialect, sql, List.of(), Refusal.of("too_long", "the statement has " + sql.length()
          + " characters; the limit is " + MAX_SQL_CHARS, "Send a shorter query; aggregate in SQL rather than "
          + "listing values."));
    }
    Lexed lexed = SqlLexer.lex(dialect.lexRules(), sql);
    if (lexed.problem() != null) {
      Lexed.Problem p = lexed.problem();
      Refusal r = switch (p.rule()) {
        case "executable_comment" -> Refusal.of("executable_comment", p.message() + " that the guard cannot see",
            "Remove the /*! ... */ comment; write plain SQL.");
        case "optimizer_hint" -> Refusal.of("optimizer_hint", p.message(),
            "Remove the hint; the connection's deadline and maxRows bound every query.");
        case "control_character" -> Refusal.of("control_character", p.message(),
            "Remove control characters; use spaces, tabs and newlines only.");
        default -> new Refusal("unparseable", p.message(), "Close every quote and comment.", null, true);
      };
      return refused(dialect, sql, lexed.tokens(), r.at(p.offset() + 1));
    }
    List<Token> tokens = new ArrayList<>(lexed.tokens());
    while (!tokens.isEmpty() && tokens.get(tokens.size() - 1).isSymbol(';')) {
      tokens.remove(tokens.size() - 1);
    }
    if (tokens.isEmpty()) {
      return refused(dialect, sql, List.of(), Refusal.of("empty", "the statement is empty (or only comments)",
          "Send one SELECT statement."));
    }
    for (Token t : tokens) {
      if (t.isSymbol(';')) {
        return refused(dialect, sql, tokens, Refusal.of("multiple_statements", "only one statement may be sent; "
            + "found more after the ';' at character " + (t.start() + 1), "Send each query as its own call, "
            + "without ';' between them.").at(t.start() + 1));
      }
    }
    int depth = 0;
    for (Token t : tokens) {
      depth += t.isSymbol('(') ? 1 : t.isSymbol(')') ? -1 : 0;
      if (depth > MAX_NESTING) {
        return refused(dialect, sql, tokens, Refusal.of("too_deep", "parentheses are nested more than "
            + MAX_NESTING + " deep", "Flatten the expression.").at(t.start() + 1));
      }
    }
    return statement(dialect, sql, tokens);
  }

  /** One statement's tokens (no ';'), from the lexer, to its analysis. */
  private static AnalysedStatement statement(SqlDialect dialect, String sql, List<Token> tokens) {
    int k = 0;
    while (k < tokens.size() && tokens.get(k).isSymbol('(')) {
      k++;
    }
    String first = k < tokens.size() && tokens.get(k).kind() == Token.Kind.WORD
        ? tokens.get(k).text().toLowerCase(Locale.ROOT) : "";
    StatementKind kind = StatementKind.of(first);
    if ((kind == StatementKind.DESCRIBE || kind == StatementKind.EXPLAIN) && k == 0) {
      SqlDialect.Explain ex = dialect.explain(tokens);
      if (ex != null && ex.refusal() != null) {
        return refused(dialect, sql, tokens, ex.refusal());
      }
      if (ex != null) {
        if (ex.innerStart() >= tokens.size()) {
          return refused(dialect, sql, tokens, Refusal.of("empty", "EXPLAIN names no statement",
              "Write EXPLAIN followed by one SELECT."));
        }
        AnalysedStatement inner = statement(dialect, sql, tokens.subList(ex.innerStart(), tokens.size()));
        return build(dialect, sql, tokens, StatementKind.EXPLAIN, first, inner.problem(), new StatementFacts(dialect),
            inner, ex.analyze(), null);
      }
      kind = StatementKind.DESCRIBE;
    }
    if (kind == StatementKind.SHOW || kind == StatementKind.DESCRIBE || kind == StatementKind.PRAGMA) {
      Refusal r = dialect.metadataRead(kind, tokens);
      StatementFacts facts = new StatementFacts(dialect);
      facts.relations.addAll(dialect.metadataRelations(kind, tokens));
      for (int i = 0; i < facts.relations.size(); i++) {
        facts.wholeRows.add(i);
      }
      return build(dialect, sql, tokens, kind, first, r, facts, null, false, null);
    }
    if (kind == StatementKind.OTHER) {
      // session control, host access, procedures: refused by kind; no parser opinion needed
      return build(dialect, sql, tokens, kind, first, null, new StatementFacts(dialect), null, false, null);
    }
    ParserText text = ParserText.of(dialect, tokens);
    Statement st;
    try {
      st = parse(text.text);
    } catch (ParseException | RuntimeException | Error e) {
      if (e instanceof StackOverflowError so) {
        throw so;
      }
      return build(dialect, sql, tokens, kind, first, unparseable(dialect, e, text), new StatementFacts(dialect), null,
          false, null);
    }
    Refusal disagree = st == null ? Refusal.of("parser_disagrees", "the SQL parser found another statement count "
        + "than the engine's lexer", "Send one plain statement.") : kindMismatch(kind, st);
    if (disagree != null) {
      return build(dialect, sql, tokens, kind, first, disagree, new StatementFacts(dialect), null, false, null);
    }
    StatementFacts facts = new StatementFacts(dialect);
    facts.statement(st);
    // DDL names tables and types with parentheses; only reads and DML are checked for unplaced calls
    boolean ddl = kind == StatementKind.CREATE || kind == StatementKind.ALTER || kind == StatementKind.DROP
        || kind == StatementKind.TRUNCATE;
    Refusal unplaced = ddl ? null : unplacedCall(tokens, facts);
    return build(dialect, sql, tokens, kind, first, unplaced, facts, null, false, write(st));
  }

  /** Keywords that may stand before a parenthesis without calling a function. */
  private static final java.util.Set<String> PAREN_KEYWORDS = java.util.Set.of("in", "exists", "values", "as",
      "over", "filter", "within", "using", "on", "and", "or", "not", "select", "from", "join", "where", "lateral",
      "any", "all", "some", "array", "row", "cast", "when", "then", "else", "by", "distinct", "is", "like",
      "ilike", "between", "table", "sets", "cube", "rollup", "union", "intersect", "except", "limit", "offset",
      "returning", "with", "recursive", "window", "interval", "case", "having", "into", "set", "key", "primary",
      "references", "check", "constraint", "unique", "index", "foreign", "default", "conflict", "do", "materialized",
      "nulls", "first", "last", "asc", "desc", "order", "group", "escape", "collate", "at", "zone", "to", "for",
      "of", "only", "tablesample", "repeatable", "ordinality", "against", "force", "ignore", "use", "straight_join",
      "separator", "partition", "rows", "range", "groups", "preceding", "following", "current", "unbounded",
      "exclude", "ties", "others", "return", "returns", "lock", "mode", "share", "update", "nowait", "skip",
      "locked", "natural", "inner", "outer", "left", "right", "full", "cross", "elseif", "end", "columns", "member",
      "bernoulli", "system", "match", "explain", "analyze", "analyse", "verbose", "format");

  /**
   * A name followed by {@code (} that the parser did not read as a call, an alias, a CTE or a type:
   * the lexer and the parser disagree on what the statement calls, so the statement is refused
   * rather than run with a function the allow-list never saw.
   */
  private static Refusal unplacedCall(List<Token> tokens, StatementFacts facts) {
    java.util.Set<String> placed = new java.util.HashSet<>(facts.declared);
    facts.functions.forEach(f -> placed.add(f.name().toLowerCase(Locale.ROOT)));
    facts.types.forEach(placed::add);
    facts.relations.forEach(r -> placed.add(r.name().toLowerCase(Locale.ROOT)));
    int skipUntil = -1;
    for (int i = 0; i + 1 < tokens.size(); i++) {
      Token t = tokens.get(i);
      if (!t.isName() || !tokens.get(i + 1).isSymbol('(') || i < skipUntil) {
        continue;
      }
      if (t.is("columns")) {
        // JSON_TABLE's COLUMNS (name TYPE(n) PATH ...): column definitions, not calls
        skipUntil = closing(tokens, i + 1);
        continue;
      }
      String n = t.value().toLowerCase(Locale.ROOT);
      boolean keyword = t.kind() == Token.Kind.WORD && PAREN_KEYWORDS.contains(n);
      boolean typeOrAlias = i > 0 && (tokens.get(i - 1).is("as") || tokens.get(i - 1).isSymbol(':'));
      if (!keyword && !typeOrAlias && !placed.contains(n)) {
        return Refusal.of("parser_disagrees", "the statement calls " + t.value() + "(...) in a form the analysis "
            + "could not place", "Write the call in plain function syntax, or leave it out.").at(t.start() + 1);
      }
    }
    return null;
  }

  /** The one statement of the text, or null when the parser reads a different number of them. */
  private static Statement parse(String text) throws ParseException {
    CCJSqlParser parser = CCJSqlParserUtil.newParser(text).withAllowComplexParsing(true);
    ScheduledFuture<?> stop = DEADLINES.schedule(() -> {
      parser.interrupted = true;
    }, PARSE_DEADLINE_MS, TimeUnit.MILLISECONDS);
    try {
      Statements all = parser.Statements();
      if (parser.interrupted) {
        throw new IllegalStateException("parsing took longer than " + PARSE_DEADLINE_MS + " ms");
      }
      List<Statement> list = all.stream().filter(s -> s != null).toList();
      return list.size() == 1 ? list.get(0) : null;
    } finally {
      stop.cancel(false);
    }
  }

  /** Index of the parenthesis closing the one at {@code open}. */
  private static int closing(List<Token> tokens, int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      depth += tokens.get(i).isSymbol('(') ? 1 : tokens.get(i).isSymbol(')') ? -1 : 0;
      if (depth == 0) {
        return i;
      }
    }
    return tokens.size();
  }

  private static Refusal kindMismatch(StatementKind kind, Statement st) {
    boolean agrees = switch (kind) {
      case QUERY -> st instanceof Select;
      case INSERT, REPLACE -> st instanceof Insert || st.getClass().getSimpleName().equals("Upsert");
      case UPDATE -> st instanceof Update;
      case DELETE -> st instanceof Delete;
      case MERGE -> st instanceof Merge;
      case CREATE -> st.getClass().getSimpleName().startsWith("Create");
      case ALTER -> st.getClass().getSimpleName().startsWith("Alter");
      case DROP -> st instanceof Drop;
      case TRUNCATE -> st instanceof Truncate;
      default -> false;
    };
    return agrees ? null : Refusal.of("parser_disagrees", "the statement starts like " + kind.name()
        + " but parses as " + st.getClass().getSimpleName(), "Send one plain statement.");
  }

  private static AnalysedStatement.Write write(Statement st) {
    if (st instanceof Insert ins) {
      return new AnalysedStatement.Write(ins.getTable().getFullyQualifiedName(), false);
    }
    if (st instanceof Update up) {
      return new AnalysedStatement.Write(up.getTable().getFullyQualifiedName(), up.getWhere() == null);
    }
    if (st instanceof Delete del) {
      return new AnalysedStatement.Write(del.getTable().getFullyQualifiedName(), del.getWhere() == null);
    }
    if (st instanceof Truncate tr) {
      return new AnalysedStatement.Write(tr.getTable().getFullyQualifiedName(), true);
    }
    if (st instanceof Drop d) {
      return new AnalysedStatement.Write(d.getName().getFullyQualifiedName(), true);
    }
    if (st instanceof CreateTable ct) {
      return new AnalysedStatement.Write(ct.getTable().getFullyQualifiedName(), false);
    }
    if (st instanceof CreateIndex ci) {
      return new AnalysedStatement.Write(ci.getTable().getFullyQualifiedName(), false);
    }
    if (st instanceof CreateView cv) {
      return new AnalysedStatement.Write(cv.getView().getFullyQualifiedName(), false);
    }
    if (st instanceof Alter a) {
      return new AnalysedStatement.Write(a.getTable().getFullyQualifiedName(), false);
    }
    return null;
  }

  private static Refusal unparseable(SqlDialect dialect, Throwable e, ParserText text) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().split("\n")[0];
    Integer position = null;
    java.util.regex.Matcher at = java.util.regex.Pattern.compile("at line (\\d+), column (\\d+)").matcher(m);
    if (at.find()) {
      position = text.originalOffset(Integer.parseInt(at.group(1)), Integer.parseInt(at.group(2))) + 1;
      m = m.replaceAll("\\s*at line \\d+, column \\d+\\.?", "").replaceAll(",?\\s*in lexical state \\w+\\.?", "");
    }
    boolean timedOut = String.valueOf(e.getMessage()).contains("longer than");
    if (timedOut) {
      return Refusal.of("too_complex", "the statement could not be analysed within " + PARSE_DEADLINE_MS + " ms",
          "Simplify it: fewer nested expressions, or IN (...) instead of long OR chains.");
    }
    return new Refusal("unparseable", "the SQL parser could not read the statement"
        + (position == null ? "" : " at character " + position) + ": " + m.strip(),
        "Check the syntax near the reported position; if it is valid " + dialect.name() + " SQL, rewrite that "
            + "part with more common syntax (e.g. CAST(x AS type) instead of x::type).", position, true);
  }

  private static AnalysedStatement refused(SqlDialect dialect, String sql, List<Token> tokens, Refusal r) {
    return build(dialect, sql, tokens, StatementKind.OTHER, "", r, new StatementFacts(dialect), null, false, null);
  }

  private static AnalysedStatement build(SqlDialect dialect, String sql, List<Token> tokens, StatementKind kind,
      String first, Refusal problem, StatementFacts f, AnalysedStatement explained, boolean analyze,
      AnalysedStatement.Write write) {
    int start = tokens.isEmpty() ? 0 : tokens.get(0).start();
    int end = tokens.isEmpty() ? 0 : tokens.get(tokens.size() - 1).end();
    String text = sql.substring(start, end);
    return new AnalysedStatement(dialect, text, start, kind, first, problem, List.copyOf(tokens),
        List.copyOf(f.relations), List.copyOf(f.columns), List.copyOf(f.wholeRows), List.copyOf(f.functions),
        List.copyOf(f.types), f.assignsVariables, explained, analyze, write, fingerprint(tokens));
  }

  /**
   * 16 hex characters of the SHA-256 of the statement's tokens with literals replaced by {@code ?}
   * and words lower-cased: queries that differ only in their values share it.
   */
  static String fingerprint(List<Token> tokens) {
    StringBuilder b = new StringBuilder();
    for (Token t : tokens) {
      if (b.length() > 0) {
        b.append(' ');
      }
      switch (t.kind()) {
        case STRING, NUMBER -> b.append('?');
        case WORD -> b.append(t.text().toLowerCase(Locale.ROOT));
        case IDENTIFIER -> b.append('"').append(t.value()).append('"');
        default -> b.append(t.text());
      }
    }
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(b.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
