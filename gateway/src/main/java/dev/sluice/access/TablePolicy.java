package dev.sluice.access;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.TableRef;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TableRules;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.guard.StatementRelations;
import io.vertx.core.json.JsonArray;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Per-principal table and column policies ({@code principals[].tables.<connection>}). Statements
 * are read with the guard's parser: every relation they read must be allowed and not denied, no
 * denied column may be referenced, and {@code *} / {@code t.*} may not expand over a table with
 * denied columns. Catalog relations (information_schema, pg_catalog, sqlite_master, pragma
 * functions) and PRAGMA/SHOW/DESCRIBE would reveal what the policy hides, so they are refused for
 * a governed principal, who uses the catalog tools instead: those apply the same policy. The
 * database role stays the final wall (docs/security.md).
 */
public final class TablePolicy {

  private static final Set<String> SQLITE_CATALOG = Set.of("sqlite_master", "sqlite_schema", "sqlite_temp_master",
      "sqlite_temp_schema", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4");
  private static final Set<String> SYSTEM_SCHEMAS = Set.of("information_schema", "pg_catalog", "mysql",
      "performance_schema", "sys", "pg_toast");

  private final Map<String, Map<String, Compiled>> byPrincipal = new HashMap<>();
  private final Map<String, ConnectionConfig> connections = new HashMap<>();
  private final dev.sluice.tools.CatalogAccess catalog;

  public TablePolicy(SluiceConfig config, dev.sluice.tools.CatalogAccess catalog) {
    this.catalog = catalog;
    config.connections().forEach(c -> connections.put(c.id(), c));
    for (PrincipalConfig p : config.principals()) {
      Map<String, Compiled> rules = new HashMap<>();
      p.tables().forEach((conn, r) -> rules.put(conn, new Compiled(r)));
      byPrincipal.put(p.name(), rules);
    }
  }

  /** The compiled rules of a principal on a connection; null when only the database role governs. */
  Compiled rules(String principal, String connectionId) {
    Map<String, Compiled> m = byPrincipal.get(principal);
    return m == null ? null : m.get(connectionId);
  }

  public boolean governs(String principal, String connectionId) {
    return rules(principal, connectionId) != null;
  }

  /** Whether the principal may see this table (catalog tools hide the ones it may not). */
  public boolean tableVisible(String principal, String connectionId, TableRef t) {
    Compiled r = rules(principal, connectionId);
    return r == null || r.tableAllowed(t.db(), t.name());
  }

  public boolean columnVisible(String principal, String connectionId, TableRef t, String column) {
    Compiled r = rules(principal, connectionId);
    return r == null || r.tableAllowed(t.db(), t.name()) && !r.columnDenied(t.db(), t.name(), column);
  }

  private final Map<String, CatalogSnapshot> visibleCache = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The snapshot as this principal may see it: hidden tables removed, denied columns removed, and
   * foreign keys to hidden tables or from hidden columns dropped. Cached per principal and syncId.
   */
  public CatalogSnapshot visible(String principal, CatalogSnapshot s) {
    Compiled r = rules(principal, s.connectionId());
    if (r == null) {
      return s;
    }
    String key = principal + "/" + s.connectionId() + "/" + s.syncId();
    return visibleCache.computeIfAbsent(key, k -> {
      visibleCache.keySet().removeIf(old -> old.startsWith(principal + "/" + s.connectionId() + "/"));
      List<CatalogTable> tables = new ArrayList<>();
      Set<String> hidden = hiddenViews(principal, s);
      for (CatalogTable t : s.tables()) {
        if (!r.tableAllowed(t.ref().db(), t.ref().name()) || hidden.contains(viewKey(t.ref()))) {
          continue;
        }
        List<CatalogColumn> cols = t.columns().stream()
            .filter(col -> !r.columnDenied(t.ref().db(), t.ref().name(), col.name())).toList();
        List<dev.sluice.catalog.CatalogForeignKey> fks = t.foreignKeys().stream()
            .filter(fk -> r.tableAllowed(fk.toDb(), fk.toTable())
                && !r.columnDenied(t.ref().db(), t.ref().name(), fk.fromColumn()))
            .toList();
        tables.add(new CatalogTable(t.ref(), t.kind(), t.comment(), t.estimatedRows(), cols, fks));
      }
      return new CatalogSnapshot(s.connectionId(), s.driver(), s.syncId(), s.extractedAt(), s.scanMs(), tables,
          s.problems(), s.profile());
    });
  }

  /**
   * Computes what {@link #visible} and {@link #tableVisible(String, CatalogSnapshot, TableRef)}
   * need for these snapshots on a worker thread, once per principal and syncId: following every
   * view's definition parses SQL, which is no work for an event loop on a large catalog.
   */
  public io.vertx.core.Future<Void> prime(String principal, java.util.Collection<CatalogSnapshot> snapshots) {
    List<io.vertx.core.Future<Boolean>> all = new ArrayList<>();
    for (CatalogSnapshot s : snapshots) {
      if (governs(principal, s.connectionId())) {
        all.add(catalog.derived("policy/" + principal, s, x -> {
          visible(principal, x);
          return Boolean.TRUE;
        }));
      }
    }
    return io.vertx.core.Future.all(all).mapEmpty();
  }

  private final Map<String, Set<String>> hiddenViewsCache = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The views of the snapshot this principal may not read because of what they read (a denied
   * table or column behind them), as {@code db.name}; cached per principal and syncId.
   */
  Set<String> hiddenViews(String principal, CatalogSnapshot s) {
    Compiled r = rules(principal, s.connectionId());
    ConnectionConfig c = connections.get(s.connectionId());
    if (r == null || c == null) {
      return Set.of();
    }
    String key = principal + "/" + s.connectionId() + "/" + s.syncId();
    return hiddenViewsCache.computeIfAbsent(key, k -> {
      hiddenViewsCache.keySet().removeIf(old -> old.startsWith(principal + "/" + s.connectionId() + "/"));
      Set<String> hidden = new java.util.HashSet<>();
      for (CatalogTable t : s.tables()) {
        if ("view".equals(t.kind()) && t.definition() != null) {
          try {
            checkReads(principal, c, r, Dialect.of(c.driver()), t.definition(), s, List.of(),
                List.of(t.ref().name()));
          } catch (SqlError e) {
            hidden.add(viewKey(t.ref()));
          }
        }
      }
      return Set.copyOf(hidden);
    });
  }

  /** Whether the principal may see this table or view of the snapshot (catalog tools hide the others). */
  public boolean tableVisible(String principal, CatalogSnapshot s, TableRef t) {
    return tableVisible(principal, s.connectionId(), t) && !hiddenViews(principal, s).contains(viewKey(t));
  }

  private static String viewKey(TableRef t) {
    return (t.db() == null ? "" : t.db().toLowerCase(Locale.ROOT)) + "." + t.name().toLowerCase(Locale.ROOT);
  }

  /** {@link #check} with the connection's snapshot (for the permitted columns of a refusal). */
  public io.vertx.core.Future<Void> checkStatement(String principal, ConnectionConfig c, String sql) {
    if (!governs(principal, c.id())) {
      return io.vertx.core.Future.succeededFuture();
    }
    return catalog.current(c.id()).map(s -> {
      check(principal, c, sql, s.orElse(null));
      return (Void) null;
    });
  }

  /**
   * Refuses a statement that reads outside the principal's policy. {@code snapshot} (may be
   * null) supplies the permitted columns named in a {@code *} refusal.
   */
  public void check(String principal, ConnectionConfig c, String sql, CatalogSnapshot snapshot) {
    check(principal, c, sql, snapshot, List.of());
  }

  /**
   * @param granted tables an approved query's author vouches for ({@code grants_tables}): they may
   *     be read, and their columns referenced, whatever the principal's rules say
   */
  public void check(String principal, ConnectionConfig c, String sql, CatalogSnapshot snapshot, List<String> granted) {
    Compiled r = rules(principal, c.id());
    if (r == null || sql == null) {
      return;
    }
    Dialect dialect = Dialect.of(c.driver());
    String first = sql.strip().split("\\s+", 2)[0].toLowerCase(Locale.ROOT);
    if (Set.of("pragma", "show", "describe", "desc").contains(first)) {
      throw denied(principal, c, first.toUpperCase(Locale.ROOT) + " statements reveal tables and columns your "
          + "policy may hide", "Use entity_details or discover_data: they show what your policy allows.");
    }
    checkReads(principal, c, r, dialect, explained(sql), snapshot, granted, List.of());
  }

  /**
   * The relation, column and star rules over one SELECT; then, for every view it reads whose
   * definition the snapshot holds, the same rules over that definition: a view over a denied
   * table or column is refused like the table itself.
   *
   * @param via the views followed to reach {@code sql}, outermost first
   */
  private void checkReads(String principal, ConnectionConfig c, Compiled r, Dialect dialect, String sql,
      CatalogSnapshot snapshot, List<String> granted, List<String> via) {
    StatementRelations rel;
    try {
      rel = via.isEmpty() ? StatementRelations.read(dialect, sql) : viewRelations(dialect, sql);
    } catch (IllegalArgumentException e) {
      throw new SqlError(ErrorType.VALIDATION_FAILED, via.isEmpty()
          ? "the statement could not be analysed against your table policy; it must be a plain SELECT the parser reads"
          : "view '" + via.get(via.size() - 1) + "' could not be analysed against your table policy, so it is not "
              + "readable for you").with("rule", "policy_unparseable");
    }
    for (String fn : rel.tableFunctions()) {
      if (fn.startsWith("pragma_")) {
        throw denied(principal, c, "table function " + fn + "() reads the catalog, which your policy may hide",
            "Use entity_details for table structure.");
      }
    }
    String defaultSchema = defaultSchema(c);
    List<String[]> tables = new ArrayList<>();
    for (String relation : rel.relations()) {
      String[] st = split(relation, defaultSchema);
      if (isGranted(granted, st)) {
        continue;
      }
      if (catalogRelation(c.driver(), st)) {
        throw denied(principal, c, "'" + relation + "' is a catalog relation and would reveal what your policy "
            + "hides", "Use entity_details or discover_data: they apply your policy.");
      }
      if (!r.tableAllowed(st[0], st[1])) {
        throw denied(principal, c, "table '" + relation + "' is not allowed for principal '" + principal + "' on '"
            + c.id() + "'", "Allowed: " + r.allowDescription() + ". Use discover_data to find allowed tables.")
            .with("table", relation).with("allowed", new JsonArray(r.rules.allow())).with("denied",
                new JsonArray(r.rules.deny()));
      }
      tables.add(st);
    }
    for (StatementRelations.ColumnRef col : rel.columns()) {
      List<String[]> candidates = candidates(col.qualifier(), rel, tables, defaultSchema);
      for (String[] t : candidates) {
        if (r.columnDenied(t[0], t[1], col.name())) {
          throw denied(principal, c, "column '" + t[1] + "." + col.name() + "' is not allowed for principal '"
              + principal + "'", "Leave it out of the statement.").with("column", t[1] + "." + col.name());
        }
      }
    }
    List<String[]> starred = new ArrayList<>();
    if (rel.bareStar()) {
      starred.addAll(tables);
    }
    for (String q : rel.starQualifiers()) {
      starred.addAll(candidates(q, rel, tables, defaultSchema));
    }
    for (String[] t : starred) {
      if (r.hasDeniedColumns(t[0], t[1])) {
        List<String> permitted = permittedColumns(snapshot, r, t);
        throw denied(principal, c, "SELECT * over '" + t[1] + "' would include columns your policy denies",
            permitted.isEmpty() ? "Name the columns you need; entity_details lists the ones you may read."
                : "Select these instead: " + String.join(", ", permitted))
            .with("permittedColumns", new JsonArray(permitted));
      }
    }
    for (String[] t : tables) {
      CatalogTable view = view(snapshot, t);
      if (view == null || via.contains(t[1])) {
        continue;
      }
      List<String> deeper = new ArrayList<>(via);
      deeper.add(t[1]);
      if (deeper.size() > MAX_VIEW_DEPTH) {
        throw denied(principal, c, "views nested deeper than " + MAX_VIEW_DEPTH + " (" + String.join(" -> ", deeper)
            + ") are not followed, so they are not readable for you", "Query the tables the views read.");
      }
      try {
        checkReads(principal, c, r, dialect, view.definition(), snapshot, granted, deeper);
      } catch (SqlError e) {
        throw via.isEmpty() ? throughView(t[1], e) : e;
      }
    }
  }

  /** View definitions read once: every statement over a view would parse them again. */
  private final Map<String, StatementRelations> parsedViews = new java.util.concurrent.ConcurrentHashMap<>();

  private StatementRelations viewRelations(Dialect dialect, String definition) {
    String key = dialect + "\u0000" + definition;
    StatementRelations cached = parsedViews.get(key);
    if (cached == null) {
      cached = StatementRelations.read(dialect, definition);
      if (parsedViews.size() > 10_000) {
        parsedViews.clear(); // bounded: definitions change only with a rescan
      }
      parsedViews.put(key, cached);
    }
    return cached;
  }

  /** How deep a chain of views the policy follows before refusing. */
  static final int MAX_VIEW_DEPTH = 8;

  /** The view {schema, name} names in the snapshot, with its definition; null for tables and unknown views. */
  private static CatalogTable view(CatalogSnapshot s, String[] t) {
    if (s == null) {
      return null;
    }
    for (CatalogTable table : s.tables()) {
      if ("view".equals(table.kind()) && table.definition() != null && table.ref().name().equalsIgnoreCase(t[1])
          && (table.ref().db() == null || table.ref().db().equalsIgnoreCase(t[0]))) {
        return table;
      }
    }
    return null;
  }

  /** The refusal met inside a view, said of the view the statement named. */
  private static SqlError throughView(String view, SqlError inner) {
    return new SqlError(inner.type(), "view '" + view + "' reads what your policy denies: " + inner.getMessage(),
        inner.details().copy().put("view", view));
  }

  private static boolean isGranted(List<String> granted, String[] st) {
    for (String g : granted) {
      String[] gs = g.split("\\.");
      boolean nameMatches = gs[gs.length - 1].equalsIgnoreCase(st[1]);
      if (nameMatches && (gs.length == 1 || gs[gs.length - 2].equalsIgnoreCase(st[0]))) {
        return true;
      }
    }
    return false;
  }

  /** The statement behind EXPLAIN [QUERY PLAN | FORMAT=x | (options)], which is what reads data. */
  private static String explained(String sql) {
    String s = sql.strip();
    if (!s.toLowerCase(Locale.ROOT).startsWith("explain")) {
      return s;
    }
    java.util.regex.Matcher m = Pattern.compile("(?is)\\b(select|with|values)\\b").matcher(s);
    return m.find() ? s.substring(m.start()) : s;
  }

  private static List<String[]> candidates(String qualifier, StatementRelations rel, List<String[]> tables,
      String defaultSchema) {
    if (qualifier == null) {
      return tables;
    }
    String q = qualifier.toLowerCase(Locale.ROOT);
    String aliased = rel.aliases().get(q);
    if (aliased != null) {
      return List.<String[]>of(split(aliased, defaultSchema));
    }
    String[] named = split(qualifier, defaultSchema);
    for (String[] t : tables) {
      if (t[1].equalsIgnoreCase(named[1]) && (qualifier.indexOf('.') < 0 || t[0].equalsIgnoreCase(named[0]))) {
        return List.<String[]>of(t);
      }
    }
    // a CTE or derived-table alias: its columns may come from any table the statement reads
    return tables;
  }

  private static List<String> permittedColumns(CatalogSnapshot s, Compiled r, String[] t) {
    List<String> out = new ArrayList<>();
    if (s == null) {
      return out;
    }
    for (CatalogTable table : s.tables()) {
      if (table.ref().name().equalsIgnoreCase(t[1])
          && (table.ref().db() == null || table.ref().db().equalsIgnoreCase(t[0]))) {
        for (CatalogColumn col : table.columns()) {
          if (!r.columnDenied(t[0], t[1], col.name())) {
            out.add(col.name());
          }
        }
      }
    }
    return out;
  }

  private static boolean catalogRelation(Driver driver, String[] st) {
    String schema = st[0].toLowerCase(Locale.ROOT);
    String name = st[1].toLowerCase(Locale.ROOT);
    return SYSTEM_SCHEMAS.contains(schema)
        || driver == Driver.SQLITE && SQLITE_CATALOG.contains(name)
        || driver == Driver.POSTGRES && name.startsWith("pg_");
  }

  /** {schema, table}; a bare name is in the connection's default schema. */
  static String[] split(String relation, String defaultSchema) {
    String[] parts = relation.split("\\.");
    String name = parts[parts.length - 1];
    String schema = parts.length >= 2 ? parts[parts.length - 2] : defaultSchema;
    return new String[] {schema == null ? "" : schema, name};
  }

  private static String defaultSchema(ConnectionConfig c) {
    return switch (c.driver()) {
      case SQLITE -> "main";
      case POSTGRES -> "public";
      case MYSQL -> {
        String path = c.url() == null ? "" : URI.create(c.url()).getPath();
        yield path == null ? "" : path.replaceFirst("^/", "");
      }
    };
  }

  private static SqlError denied(String principal, ConnectionConfig c, String what, String hint) {
    return new SqlError(ErrorType.PERMISSION_DENIED, what).with("principal", principal).with("connectionId", c.id())
        .with("hint", hint);
  }

  /** Rules with their globs compiled. */
  static final class Compiled {
    final TableRules rules;
    private final List<Pattern> allow = new ArrayList<>();
    private final List<Pattern> deny = new ArrayList<>();
    private final List<Pattern[]> deniedColumns = new ArrayList<>();

    Compiled(TableRules rules) {
      this.rules = rules;
      rules.allow().forEach(p -> allow.add(glob(p)));
      rules.deny().forEach(p -> deny.add(glob(p)));
      for (String dc : rules.denyColumns()) {
        int dot = dc.lastIndexOf('.');
        deniedColumns.add(new Pattern[] {glob(dc.substring(0, dot)), glob(dc.substring(dot + 1))});
      }
    }

    boolean tableAllowed(String schema, String table) {
      boolean allowed = allow.isEmpty() || allow.stream().anyMatch(p -> matches(p, schema, table));
      return allowed && deny.stream().noneMatch(p -> matches(p, schema, table));
    }

    boolean columnDenied(String schema, String table, String column) {
      for (Pattern[] d : deniedColumns) {
        if (matches(d[0], schema, table) && d[1].matcher(column.toLowerCase(Locale.ROOT)).matches()) {
          return true;
        }
      }
      return false;
    }

    boolean hasDeniedColumns(String schema, String table) {
      return deniedColumns.stream().anyMatch(d -> matches(d[0], schema, table));
    }

    String allowDescription() {
      Set<String> out = new LinkedHashSet<>(rules.allow().isEmpty() ? List.of("every table") : rules.allow());
      if (!rules.deny().isEmpty()) {
        return out + " except " + rules.deny();
      }
      return out.toString();
    }

    /** A pattern with a dot matches schema.table; without, the table name in any schema. */
    private static boolean matches(Pattern p, String schema, String table) {
      String t = table.toLowerCase(Locale.ROOT);
      String qualified = (schema == null ? "" : schema.toLowerCase(Locale.ROOT)) + "." + t;
      return p.pattern().contains("\\.") ? p.matcher(qualified).matches() : p.matcher(t).matches();
    }

    private static Pattern glob(String g) {
      StringBuilder re = new StringBuilder();
      for (char ch : g.toLowerCase(Locale.ROOT).toCharArray()) {
        switch (ch) {
          case '*' -> re.append(".*");
          case '?' -> re.append('.');
          case '.' -> re.append("\\.");
          default -> re.append(Pattern.quote(String.valueOf(ch)));
        }
      }
      return Pattern.compile(re.toString());
    }
  }
}
