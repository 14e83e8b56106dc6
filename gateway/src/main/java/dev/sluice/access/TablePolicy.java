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
import java.util.Optional;
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

  private final Map<String, CatalogView> viewCache = new java.util.concurrent.ConcurrentHashMap<>();

  /**
   * What the principal may see of the connection's catalog; empty when no rules govern it there (it
   * sees everything). Cached per principal and syncId; view definitions are followed off the event
   * loop ({@link #prime}).
   */
  public Future<Optional<CatalogView>> view(String principal, String connectionId) {
    if (!governs(principal, connectionId)) {
      return Future.succeededFuture(Optional.empty());
    }
    if (catalog == null) {
      return Future.succeededFuture(Optional.of(CatalogView.unknown()));
    }
    return catalog.current(connectionId).compose(s -> {
      if (s.isEmpty()) {
        return Future.succeededFuture(Optional.of(CatalogView.unknown()));
      }
      String key = principal + "/" + connectionId + "/" + s.get().syncId();
      CatalogView cached = viewCache.get(key);
      if (cached != null) {
        return Future.succeededFuture(Optional.of(cached));
      }
      return prime(principal, List.of(s.get())).map(v -> {
        viewCache.keySet().removeIf(old -> old.startsWith(principal + "/" + connectionId + "/"));
        CatalogView view = new CatalogView(s.get(), visible(principal, s.get()));
        viewCache.put(key, view);
        return Optional.of(view);
      });
    });
  }

  /**
   * An engine error as a governed principal may see it: name suggestions and the engine's own hint
   * can name tables and columns the policy hides ("did you mean payments?", "perhaps you meant
   * customers.email"), so a suggestion is kept only when it names something the catalog tools show
   * the principal, any other detail is dropped when it names something hidden, and such a message
   * is replaced. Without a snapshot no suggestion is kept.
   */
  public Future<SqlError> scrub(String principal, ConnectionConfig c, SqlError e) {
    if (!governs(principal, c.id())) {
      return Future.succeededFuture(e);
    }
    return view(principal, c.id()).map(v -> scrub(e, v.orElseThrow()))
        .otherwise(err -> scrub(e, CatalogView.unknown()));
  }

  private static SqlError scrub(SqlError e, CatalogView view) {
    JsonObject details = e.details();
    JsonArray suggestions = details.getJsonArray("suggestions");
    if (suggestions != null) {
      JsonArray kept = new JsonArray();
      for (Object o : suggestions) {
        String name = o instanceof JsonObject j ? j.getString("correction") : String.valueOf(o);
        if (view.visibleName(name)) {
          kept.add(o);
        }
      }
      details.put("suggestions", kept);
    }
    for (String key : new ArrayList<>(details.fieldNames())) {
      if (details.getValue(key) instanceof String text && view.mentionsHidden(text)) {
        details.remove(key);
      }
    }
    if (view.mentionsHidden(e.getMessage())) {
      return new SqlError(e.type(), "the statement refers to a table or column that does not exist or that your "
          + "policy hides", details);
    }
    return e;
  }
}
