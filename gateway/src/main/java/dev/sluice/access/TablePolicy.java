package dev.sluice.access;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.TableRef;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.PrincipalConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.config.TableRules;
import dev.sluice.sql.Driver;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import dev.sluice.engine.Engines;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
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
 * are judged on their {@link AnalysedStatement} (see {@link StatementPolicy}); the catalog tools
 * see a snapshot with what the policy hides taken out; engine errors are scrubbed of hidden
 * names. The database role stays the final wall (docs/security.md).
 */
public final class TablePolicy {

  private final Map<String, Map<String, CompiledRules>> byPrincipal = new HashMap<>();
  private final Map<String, ConnectionConfig> connections = new HashMap<>();
  private final dev.sluice.tools.CatalogAccess catalog;

  public TablePolicy(SluiceConfig config, dev.sluice.tools.CatalogAccess catalog) {
    this.catalog = catalog;
    config.connections().forEach(c -> connections.put(c.id(), c));
    for (PrincipalConfig p : config.principals()) {
      Map<String, CompiledRules> rules = new HashMap<>();
      p.tables().forEach((conn, r) -> rules.put(conn, new CompiledRules(r)));
      byPrincipal.put(p.name(), rules);
    }
  }

  /** The compiled rules of a principal on a connection; null when only the database role governs. */
  CompiledRules rules(String principal, String connectionId) {
    Map<String, CompiledRules> m = byPrincipal.get(principal);
    return m == null ? null : m.get(connectionId);
  }

  public boolean governs(String principal, String connectionId) {
    return rules(principal, connectionId) != null;
  }

  /** Whether the principal may see this table (catalog tools hide the ones it may not). */
  public boolean tableVisible(String principal, String connectionId, TableRef t) {
    CompiledRules r = rules(principal, connectionId);
    return r == null || r.tableAllowed(t.db(), t.name());
  }

  public boolean columnVisible(String principal, String connectionId, TableRef t, String column) {
    CompiledRules r = rules(principal, connectionId);
    return r == null || r.tableAllowed(t.db(), t.name()) && !r.columnDenied(t.db(), t.name(), column);
  }

  private final Map<String, CatalogSnapshot> visibleCache = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * The snapshot as this principal may see it: hidden tables removed, denied columns removed, and
   * foreign keys to hidden tables or from hidden columns dropped. Cached per principal and syncId.
   */
  public CatalogSnapshot visible(String principal, CatalogSnapshot s) {
    CompiledRules r = rules(principal, s.connectionId());
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
    CompiledRules r = rules(principal, s.connectionId());
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
            new StatementPolicy(catalog.vertx(), principal, c, r, s, List.of()).checkBlocking(
                SqlAnalyzer.analyseNow(Engines.of(c.driver()).dialect(), t.definition()), t.ref().name());
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

  /**
   * Refuses an analysed statement that reads outside the principal's policy (nothing to check when
   * no rules govern the principal on the connection).
   *
   * @param granted tables an approved query's author vouches for ({@code grants_tables}): they may
   *     be read, and their columns referenced, whatever the principal's rules say
   */
  public Future<Void> check(String principal, ConnectionConfig c, AnalysedStatement a, List<String> granted) {
    CompiledRules r = rules(principal, c.id());
    if (r == null) {
      return Future.succeededFuture();
    }
    if (catalog == null) {
      return new StatementPolicy(null, principal, c, r, null, granted).check(a);
    }
    return catalog.current(c.id()).compose(s -> new StatementPolicy(catalog.vertx(), principal, c, r, s.orElse(null),
        granted).check(a));
  }

  /**
   * An engine error as a governed principal may see it: name suggestions and the engine's own hint
   * can name tables and columns the policy hides ("did you mean payments?"), so suggestions are
   * kept only when visible and a hint only when it names nothing hidden.
   */
  public Future<SqlError> scrub(String principal, ConnectionConfig c, SqlError e) {
    CompiledRules r = rules(principal, c.id());
    if (r == null) {
      return Future.succeededFuture(e);
    }
    return catalog.current(c.id()).map(s -> scrub(r, c, e, s.orElse(null))).otherwise(e);
  }

  private SqlError scrub(CompiledRules r, ConnectionConfig c, SqlError e, CatalogSnapshot s) {
    JsonArray suggestions = e.details().getJsonArray("suggestions");
    if (suggestions != null) {
      JsonArray kept = new JsonArray();
      for (Object o : suggestions) {
        String name = o instanceof JsonObject j ? j.getString("correction") : String.valueOf(o);
        if (name != null && !hidden(r, c, s, name)) {
          kept.add(o);
        }
      }
      e.details().put("suggestions", kept);
    }
    String hint = e.details().getString("hint");
    if (hint != null && mentionsHidden(r, c, s, hint)) {
      e.details().remove("hint");
    }
    if (mentionsHidden(r, c, s, e.getMessage())) {
      return new SqlError(e.type(), "the statement refers to a table or column that does not exist or that your "
          + "policy hides", e.details());
    }
    return e;
  }

  /** Whether a table or column name is hidden from this principal on the connection. */
  private boolean hidden(CompiledRules r, ConnectionConfig c, CatalogSnapshot s, String name) {
    String bare = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
    String defaultSchema = Engines.of(c.driver()).defaultSchema(c);
    if (s == null) {
      return true;
    }
    for (CatalogTable t : s.tables()) {
      String schema = t.ref().db() == null ? defaultSchema : t.ref().db();
      if (t.ref().name().equalsIgnoreCase(bare) && !r.tableAllowed(schema, t.ref().name())) {
        return true;
      }
      for (CatalogColumn col : t.columns()) {
        if (col.name().equalsIgnoreCase(bare) && r.columnDenied(schema, t.ref().name(), col.name())) {
          return true;
        }
      }
    }
    return !r.tableAllowed(defaultSchema, bare) && s.tables().stream().anyMatch(t -> t.ref().name()
        .equalsIgnoreCase(bare));
  }

  private boolean mentionsHidden(CompiledRules r, ConnectionConfig c, CatalogSnapshot s, String text) {
    if (text == null || s == null) {
      return false;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    String defaultSchema = Engines.of(c.driver()).defaultSchema(c);
    for (CatalogTable t : s.tables()) {
      String schema = t.ref().db() == null ? defaultSchema : t.ref().db();
      boolean tableHidden = !r.tableAllowed(schema, t.ref().name());
      if (tableHidden && containsWord(lower, t.ref().name().toLowerCase(Locale.ROOT))) {
        return true;
      }
      for (CatalogColumn col : t.columns()) {
        if ((tableHidden || r.columnDenied(schema, t.ref().name(), col.name()))
            && containsWord(lower, col.name().toLowerCase(Locale.ROOT))) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean containsWord(String text, String word) {
    int i = text.indexOf(word);
    while (i >= 0) {
      boolean before = i == 0 || !Character.isLetterOrDigit(text.charAt(i - 1)) && text.charAt(i - 1) != '_';
      int end = i + word.length();
      boolean after = end >= text.length() || !Character.isLetterOrDigit(text.charAt(end)) && text.charAt(end) != '_';
      if (before && after) {
        return true;
      }
      i = text.indexOf(word, i + 1);
    }
    return false;
  }

}
