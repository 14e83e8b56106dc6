package dev.sluice.access;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.engine.Engine;
import dev.sluice.engine.Engines;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.ColumnUse;
import dev.sluice.sql.analysis.FunctionCall;
import dev.sluice.sql.analysis.Relation;
import dev.sluice.sql.analysis.SqlAnalyzer;
import dev.sluice.sql.analysis.StatementKind;
import dev.sluice.sql.analysis.Token;
import dev.sluice.sql.guard.FunctionRules;
import dev.sluice.sql.guard.ReadGuard;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One governed principal's rules applied to one {@link AnalysedStatement}: every base relation
 * allowed and not a catalog relation, no denied column referenced (a token naming one counts even
 * where the parser placed nothing), no whole-row exposure of a table with denied columns, no
 * catalog or table-by-name function, no cast to a relation's row type or a name-to-oid type; then
 * the same for the definition of every view it reads, down to {@link #MAX_VIEW_DEPTH} levels.
 */
final class StatementPolicy {

  /** How deep a chain of views the policy follows before refusing. */
  static final int MAX_VIEW_DEPTH = 8;

  /** PostgreSQL's name-to-oid types: a cast to one looks a name up in the catalog. */
  private static final Set<String> CATALOG_TYPES = Set.of("regclass", "regproc", "regprocedure", "regoper",
      "regoperator", "regtype", "regconfig", "regdictionary", "regnamespace", "regrole", "regcollation");

  private final Vertx vertx;
  private final String principal;
  private final ConnectionConfig connection;
  private final CompiledRules rules;
  private final CatalogSnapshot snapshot;
  private final List<String> granted;
  private final Engine engine;

  StatementPolicy(Vertx vertx, String principal, ConnectionConfig connection, CompiledRules rules,
      CatalogSnapshot snapshot, List<String> granted) {
    this.vertx = vertx;
    this.principal = principal;
    this.connection = connection;
    this.rules = rules;
    this.snapshot = snapshot;
    this.granted = granted;
    this.engine = Engines.of(connection.driver());
  }

  /** Checks the statement and the views it reads; fails with {@code permission_denied}. */
  Future<Void> check(AnalysedStatement statement) {
    if (statement.kind() == StatementKind.SHOW || statement.kind() == StatementKind.DESCRIBE
        || statement.kind() == StatementKind.PRAGMA) {
      return Future.failedFuture(denied(statement.firstWord().toUpperCase(Locale.ROOT) + " statements reveal tables "
          + "and columns your policy may hide", "Use entity_details or discover_data: they show what your policy "
          + "allows."));
    }
    return reads(statement.reading(), List.of());
  }

  /**
   * Checks a view definition synchronously (a worker thread: catalog tools hide views over what
   * the policy denies); throws the refusal.
   */
  void checkBlocking(AnalysedStatement definition, String view) {
    if (definition.problem() != null) {
      throw new SqlError(ErrorType.VALIDATION_FAILED, "view '" + view + "' could not be analysed against your "
          + "table policy").with("rule", "policy_unparseable");
    }
    List<CatalogTable> nested = local(definition, List.of(view));
    for (CatalogTable v : nested) {
      checkBlocking(SqlAnalyzer.analyseNow(engine.dialect(), v.definition()), v.ref().name());
    }
  }

  private Future<Void> reads(AnalysedStatement a, List<String> via) {
    List<CatalogTable> views;
    try {
      views = local(a, via);
    } catch (SqlError e) {
      return Future.failedFuture(e);
    }
    Future<Void> chain = Future.succeededFuture();
    for (CatalogTable view : views) {
      List<String> deeper = new ArrayList<>(via);
      deeper.add(view.ref().name());
      chain = chain.compose(x -> SqlAnalyzer.analyse(vertx, engine.dialect(), view.definition())
          .compose(def -> {
            if (def.problem() != null) {
              return Future.failedFuture(new SqlError(ErrorType.VALIDATION_FAILED, "view '" + view.ref().name()
                  + "' could not be analysed against your table policy, so it is not readable for you")
                  .with("rule", "policy_unparseable"));
            }
            return reads(def, deeper);
          })
          .recover(err -> Future.failedFuture(via.isEmpty() ? throughView(view.ref().name(), SqlError.from(err))
              : SqlError.from(err))));
    }
    return chain;
  }

  /** The rules over one statement's own facts; returns the views it reads (to follow). */
  private List<CatalogTable> local(AnalysedStatement a, List<String> via) {
    if (via.size() > MAX_VIEW_DEPTH) {
      throw denied("views nested deeper than " + MAX_VIEW_DEPTH + " (" + String.join(" -> ", via) + ") are not "
          + "followed, so they are not readable for you", "Query the tables the views read.");
    }
    FunctionRules functions = engine.dialect().functions();
    for (FunctionCall f : a.functions()) {
      FunctionRules.Verdict v = functions.of(f.name(), true);
      if (!v.allowed()) {
        SqlError e = ReadGuard.functionRefusal(f.name(), v).toError();
        throw denied(e.getMessage(), e.details().getString("hint")).with("rule", "function_not_allowed");
      }
    }
    String defaultSchema = engine.defaultSchema(connection);
    Reads reads = new Reads(a, defaultSchema);
    for (int k = 0; k < reads.size(); k++) {
      Relation r = reads.relation(k);
      String[] st = reads.table(k);
      if (r.function() || reads.granted[k]) {
        continue;
      }
      if (engine.catalogRelation(r.schema(), r.name())) {
        throw denied("'" + r.qualified() + "' is a catalog relation and would reveal what your policy hides",
            "Use entity_details or discover_data: they apply your policy.");
      }
      if (!rules.tableAllowed(st[0], st[1])) {
        // the deny list is not echoed: it names exactly the tables the policy hides
        throw denied("table '" + r.qualified() + "' is not allowed for principal '" + principal + "' on '"
            + connection.id() + "'", "Allowed: " + rules.allowDescription() + ". Use discover_data to find allowed "
            + "tables.").with("table", r.qualified()).with("allowed", new JsonArray(rules.rules.allow()));
      }
    }
    for (String type : a.types()) {
      if (CATALOG_TYPES.contains(type)) {
        throw denied("a cast to " + type + " looks names up in the database catalog, which your policy may hide",
            "Use entity_details or discover_data for what your policy allows.");
      }
      CatalogTable rowType = table(new String[] {defaultSchema, type});
      if (rowType != null && (!rules.tableAllowed(defaultSchema, type) || rules.hasDeniedColumns(defaultSchema, type))) {
        throw denied("a cast to the row type of '" + type + "' shows its columns, which your policy restricts",
            "Name the columns you need instead.");
      }
    }
    // each column against each distinct table it may belong to, and only where a deny_columns rule
    // could apply: work in the size of the statement, not in columns times relations
    int[] seenBy = new int[reads.size()];
    java.util.Arrays.fill(seenBy, -1);
    List<ColumnUse> columns = a.columns();
    for (int ci = 0; ci < columns.size(); ci++) {
      ColumnUse col = columns.get(ci);
      boolean[] denying = reads.rulesDenying(col.name());
      boolean asFunction = col.qualifier() != null && col.relations().size() == 1;
      if (denying == null && !asFunction) {
        continue;
      }
      for (int i : col.relations()) {
        int k = reads.keyOf[i];
        if (seenBy[k] == ci || reads.granted[k]) {
          continue;
        }
        seenBy[k] = ci;
        String[] t = reads.table(k);
        if (denying != null && Reads.overlap(reads.rulesOf[k], denying)) {
          throw denied("column '" + t[1] + "." + col.name() + "' is not allowed for principal '" + principal + "'",
              "Leave it out of the statement.").with("column", t[1] + "." + col.name());
        }
        CatalogTable known = asFunction && reads.restricted[k] ? table(t) : null;
        if (known != null && column(known, col.name()) == null) {
          // PostgreSQL reads t.f as f(t) when t has no column f: a function of the whole row
          throw wholeRow(t, "'" + col.qualifier() + "." + col.name() + "' is no column of '" + t[1] + "' and would be "
              + "read as a function of its whole row");
        }
      }
    }
    for (int i : a.wholeRows()) {
      int k = reads.keyOf[i];
      if (reads.restricted[k]) {
        throw wholeRow(reads.table(k), "SELECT * over '" + reads.table(k)[1] + "' (or a whole-row reference to it) "
            + "would include columns your policy denies");
      }
    }
    // a token naming a denied column of a table the statement reads counts, wherever it stands
    if (reads.anyRestricted()) {
      java.util.Set<String> checked = new java.util.HashSet<>();
      for (Token tok : a.tokens()) {
        if (!tok.isName() || !checked.add(tok.value().toLowerCase(Locale.ROOT))) {
          continue;
        }
        boolean[] denying = reads.rulesDenying(tok.value());
        for (int k = 0; denying != null && k < reads.size(); k++) {
          if (!reads.granted[k] && Reads.overlap(reads.rulesOf[k], denying)) {
            String[] t = reads.table(k);
            throw denied("column '" + t[1] + "." + tok.value() + "' is not allowed for principal '" + principal + "'",
                "Leave it out of the statement (also as an alias).").with("column", t[1] + "." + tok.value());
          }
        }
      }
    }
    List<CatalogTable> views = new ArrayList<>();
    for (int k = 0; k < reads.size(); k++) {
      String[] t = reads.table(k);
      CatalogTable v = table(t);
      if (v != null && "view".equals(v.kind()) && v.definition() != null && !via.contains(t[1]) && !reads.granted[k]) {
        views.add(v);
      }
    }
    return views;
  }

  /**
   * The relations of one statement as distinct tables, in the order they first appear (a table read
   * a thousand times is decided once), with which deny_columns rules apply to each. A governed
   * statement is checked on an event loop, so every check here is linear in the statement.
   */
  private final class Reads {
    private final List<Relation> relations;
    /** relation index to distinct table index */
    final int[] keyOf;
    private final List<Integer> first = new ArrayList<>();
    private final List<String[]> tables = new ArrayList<>();
    final boolean[] granted;
    /** has a deny_columns rule (and is not granted) */
    final boolean[] restricted;
    /** per distinct table, the deny_columns rules whose table pattern matches it */
    final boolean[][] rulesOf;
    private final java.util.Map<String, boolean[]> byColumn = new java.util.HashMap<>();

    Reads(AnalysedStatement a, String defaultSchema) {
      relations = a.relations();
      keyOf = new int[relations.size()];
      java.util.Map<String, Integer> index = new java.util.HashMap<>();
      for (int i = 0; i < relations.size(); i++) {
        Relation r = relations.get(i);
        String[] st = {r.schema() == null ? defaultSchema : r.schema(), r.name()};
        String key = (st[0] == null ? "" : st[0].toLowerCase(Locale.ROOT)) + "." + st[1].toLowerCase(Locale.ROOT)
            + (r.function() ? "()" : "");
        Integer k = index.get(key);
        if (k == null) {
          k = tables.size();
          index.put(key, k);
          tables.add(st);
          first.add(i);
        }
        keyOf[i] = k;
      }
      int n = tables.size();
      granted = new boolean[n];
      restricted = new boolean[n];
      rulesOf = new boolean[n][];
      for (int k = 0; k < n; k++) {
        String[] t = tables.get(k);
        granted[k] = isGranted(t);
        rulesOf[k] = new boolean[rules.deniedColumnRules()];
        for (int r = 0; !granted[k] && r < rulesOf[k].length; r++) {
          rulesOf[k][r] = rules.ruleTableMatches(r, t[0], t[1]);
          restricted[k] |= rulesOf[k][r];
        }
      }
    }

    int size() {
      return tables.size();
    }

    String[] table(int k) {
      return tables.get(k);
    }

    Relation relation(int k) {
      return relations.get(first.get(k));
    }

    boolean anyRestricted() {
      for (boolean r : restricted) {
        if (r) {
          return true;
        }
      }
      return false;
    }

    /** The deny_columns rules whose column pattern matches {@code column}; null when none does. */
    boolean[] rulesDenying(String column) {
      return byColumn.computeIfAbsent(column.toLowerCase(Locale.ROOT), c -> {
        boolean[] out = new boolean[rules.deniedColumnRules()];
        boolean any = false;
        for (int r = 0; r < out.length; r++) {
          out[r] = rules.ruleColumnMatches(r, c);
          any |= out[r];
        }
        return any ? out : null;
      });
    }

    static boolean overlap(boolean[] a, boolean[] b) {
      for (int i = 0; i < a.length; i++) {
        if (a[i] && b[i]) {
          return true;
        }
      }
      return false;
    }
  }

  private SqlError wholeRow(String[] t, String what) {
    List<String> permitted = new ArrayList<>();
    CatalogTable known = table(t);
    if (known != null) {
      for (CatalogColumn c : known.columns()) {
        if (!rules.columnDenied(t[0], t[1], c.name())) {
          permitted.add(c.name());
        }
      }
    }
    return denied(what, permitted.isEmpty() ? "Name the columns you need; entity_details lists the ones you may read."
        : "Select these instead: " + String.join(", ", permitted)).with("permittedColumns", new JsonArray(permitted));
  }

  /** The snapshot's tables by lower-case name, built on the first look-up. */
  private java.util.Map<String, List<CatalogTable>> byName;

  /** The snapshot's table {schema, name}, or null. */
  private CatalogTable table(String[] t) {
    if (snapshot == null) {
      return null;
    }
    if (byName == null) {
      byName = new java.util.HashMap<>();
      for (CatalogTable table : snapshot.tables()) {
        byName.computeIfAbsent(table.ref().name().toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(table);
      }
    }
    for (CatalogTable table : byName.getOrDefault(t[1].toLowerCase(Locale.ROOT), List.of())) {
      if (table.ref().db() == null || t[0] == null || table.ref().db().equalsIgnoreCase(t[0])) {
        return table;
      }
    }
    return null;
  }

  private static CatalogColumn column(CatalogTable t, String name) {
    return t.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  private boolean isGranted(String[] st) {
    for (String g : granted) {
      String[] gs = g.split("\\.");
      boolean nameMatches = gs[gs.length - 1].equalsIgnoreCase(st[1]);
      if (nameMatches && (gs.length == 1 || gs[gs.length - 2].equalsIgnoreCase(st[0]))) {
        return true;
      }
    }
    return false;
  }

  /**
   * The refusal met inside a view, said of the view the statement named, without what the view
   * reads: those names are the view owner's, and may be exactly what the policy hides.
   */
  private SqlError throughView(String view, SqlError inner) {
    return new SqlError(inner.type(), "view '" + view + "' reads a table or column your policy denies, so it is not "
        + "readable for you", new io.vertx.core.json.JsonObject().put("principal", principal)
        .put("connectionId", connection.id()).put("view", view).put("rule", inner.details().getString("rule"))
        .put("hint", "Query the tables you may read directly; discover_data lists them."));
  }

  private SqlError denied(String what, String hint) {
    return new SqlError(ErrorType.PERMISSION_DENIED, what).with("principal", principal)
        .with("connectionId", connection.id()).with("hint", hint);
  }
}
