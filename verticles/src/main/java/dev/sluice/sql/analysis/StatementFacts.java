package dev.sluice.sql.analysis;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import net.sf.jsqlparser.expression.AnalyticExpression;
import net.sf.jsqlparser.expression.BinaryExpression;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.NextValExpression;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.RowGetExpression;
import net.sf.jsqlparser.expression.VariableAssignment;
import net.sf.jsqlparser.expression.operators.relational.ExistsExpression;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.create.table.ColDataType;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.FunctionAllColumns;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.ParenthesedFromItem;
import net.sf.jsqlparser.statement.select.ParenthesedSelect;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SetOperationList;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.statement.select.TableStatement;
import net.sf.jsqlparser.statement.select.Values;
import net.sf.jsqlparser.statement.select.WithItem;

/**
 * Reads a parsed statement into facts, with SQL's scoping: a CTE name shadows a table only inside
 * the WITH that declares it (and its nested queries); an alias belongs to its query level; a
 * column may reach the relations of enclosing levels. Scope-bearing nodes (queries, FROM items,
 * columns, functions, casts) are handled by name; every other node is walked through all its
 * fields by reflection, so a clause the walker was never told about is still searched for columns,
 * functions and subqueries. Not thread-safe: one instance per statement.
 */
final class StatementFacts {

  final List<Relation> relations = new ArrayList<>();
  final List<ColumnUse> columns = new ArrayList<>();
  final Set<Integer> wholeRows = new LinkedHashSet<>();
  final List<FunctionCall> functions = new ArrayList<>();
  final List<String> types = new ArrayList<>();
  boolean assignsVariables;
  /** Aliases and CTE names: {@code g(x)} after a table function and {@code x(a, b) AS} are no calls. */
  final Set<String> declared = new java.util.HashSet<>();

  private final IdentityHashMap<Object, Boolean> seen = new IdentityHashMap<>();

  /** Where a name in FROM leads: a base relation (index), or a derived table/CTE/function (null). */
  private record Source(String alias, String name, Integer relation) {}

  private static final class Scope {
    final Scope parent;
    final Map<String, Boolean> ctes = new HashMap<>();
    final List<Source> sources = new ArrayList<>();

    Scope(Scope parent) {
      this.parent = parent;
    }

    /**
     * Whether {@code name} (as {@link #name} resolved it) is a CTE here. Names compare exactly: a
     * quoted PostgreSQL "PAYMENTS" does not shadow payments. Where the engine ignores case (MySQL
     * CTE names, SQLite) a name in other case counts as the table: refused, never missed.
     */
    boolean cte(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        if (s.ctes.containsKey(name)) {
          return true;
        }
      }
      return false;
    }

    /**
     * The nearest source called {@code name} (alias, or table name when it has none). Names compare
     * exactly, as {@link #name} resolved them: PostgreSQL "C" and c, MySQL C and c are two aliases.
     * Where the engine ignores case (SQLite) a name in other case is not found, and the callers then
     * count it against every relation in scope.
     */
    Source find(String name) {
      for (Scope s = this; s != null; s = s.parent) {
        for (int i = s.sources.size() - 1; i >= 0; i--) {
          Source src = s.sources.get(i);
          if (name.equals(src.alias) || src.alias == null && name.equals(src.name)) {
            return src;
          }
        }
      }
      return null;
    }

    private List<Integer> all;
    private int allSources = -1;

    /**
     * Base relations in this scope and every enclosing one. Every unqualified column gets this list,
     * so it is built once per state of the scope chain (sources are only ever appended) and shared:
     * thousands of columns over thousands of relations cost neither quadratic time nor memory.
     */
    List<Integer> allBase() {
      int count = 0;
      for (Scope s = this; s != null; s = s.parent) {
        count += s.sources.size();
      }
      if (all == null || count != allSources) {
        java.util.BitSet seen = new java.util.BitSet();
        List<Integer> out = new ArrayList<>();
        for (Scope s = this; s != null; s = s.parent) {
          for (Source src : s.sources) {
            if (src.relation != null && !seen.get(src.relation)) {
              seen.set(src.relation);
              out.add(src.relation);
            }
          }
        }
        all = List.copyOf(out);
        allSources = count;
      }
      return all;
    }

    List<Integer> localBase() {
      java.util.BitSet seen = new java.util.BitSet();
      List<Integer> out = new ArrayList<>();
      for (Source src : sources) {
        if (src.relation != null && !seen.get(src.relation)) {
          seen.set(src.relation);
          out.add(src.relation);
        }
      }
      return out;
    }
  }

  private final boolean foldLower;

  StatementFacts(SqlDialect dialect) {
    this.foldLower = dialect.foldsUnquotedToLower();
  }

  void statement(net.sf.jsqlparser.statement.Statement st) {
    if (st instanceof Select s) {
      select(s, new Scope(null), false);
    } else {
      node(st, new Scope(null), false);
    }
  }

  // ---- queries ------------------------------------------------------------------------------

  /** @param existsList the select list is EXISTS's: stars in it expose nothing */
  private void select(Select s, Scope outer, boolean existsList) {
    if (seen.put(s, Boolean.TRUE) != null) {
      return;
    }
    Scope scope = outer;
    List<WithItem<?>> with = s.getWithItemsList();
    if (with != null && !with.isEmpty()) {
      scope = new Scope(outer);
      boolean recursive = with.stream().anyMatch(WithItem::isRecursive);
      if (recursive) {
        // WITH RECURSIVE makes every name of the list visible in every body
        for (WithItem<?> w : with) {
          scope.ctes.put(name(w.getAliasName()), Boolean.TRUE);
        }
      }
      for (WithItem<?> w : with) {
        seen.put(w, Boolean.TRUE);
        children(w, scope, false, Set.of("alias", "withItemList"));
        // without RECURSIVE a body cannot see its own name: there it means the table
        scope.ctes.put(name(w.getAliasName()), Boolean.TRUE);
      }
      scope.ctes.keySet().forEach(n -> declared.add(n.toLowerCase(Locale.ROOT)));
    }
    if (s instanceof PlainSelect p) {
      plain(p, scope, existsList);
    } else if (s instanceof SetOperationList l) {
      for (Select branch : l.getSelects()) {
        select(branch, scope, existsList);
      }
      // ORDER BY / LIMIT of a set operation name its output columns only
      children(l, new Scope(scope), false, Set.of("selects", "withItemsList"));
    } else if (s instanceof ParenthesedSelect ps) {
      if (ps.getSelect() != null) {
        select(ps.getSelect(), scope, existsList);
      }
      children(ps, new Scope(scope), false, Set.of("select", "withItemsList", "alias"));
    } else if (s instanceof TableStatement t) {
      Source src = table(t.getTable(), scope);
      if (src.relation != null) {
        wholeRows.add(src.relation);
      }
      children(t, scope, false, Set.of("table", "withItemsList"));
    } else if (s instanceof Values v) {
      children(v, scope, false, Set.of("withItemsList", "alias"));
    } else {
      // a query form this walker does not model (piped FROM ...): every table in it is read whole
      children(s, scope, false, Set.of("withItemsList"));
    }
  }

  private void plain(PlainSelect p, Scope outer, boolean existsList) {
    Scope scope = new Scope(outer);
    if (p.getFromItem() != null) {
      from(p.getFromItem(), scope);
    }
    List<Join> joins = p.getJoins() == null ? List.of() : p.getJoins();
    for (Join j : joins) {
      seen.put(j, Boolean.TRUE);
      from(j.getFromItem(), scope);
    }
    for (Join j : joins) {
      if (j.isNatural()) {
        // NATURAL compares every same-named column: all of them are used
        wholeRows.addAll(scope.localBase());
      }
      children(j, scope, false, Set.of("fromItem"));
    }
    if (!existsList) {
      for (var item : p.getSelectItems() == null ? List.<net.sf.jsqlparser.statement.select.SelectItem<?>>of()
          : p.getSelectItems()) {
        if (item.getExpression() instanceof AllColumns all && !(all instanceof AllTableColumns)
            && !(all instanceof FunctionAllColumns)) {
          wholeRows.addAll(scope.localBase());
        }
      }
    }
    children(p, scope, false, Set.of("fromItem", "joins", "withItemsList", "selectItems"));
    if (p.getSelectItems() != null) {
      for (var item : p.getSelectItems()) {
        seen.put(item, Boolean.TRUE);
        if (item.getExpression() instanceof AllColumns all && !(all instanceof AllTableColumns)
            && !(all instanceof FunctionAllColumns)) {
          continue; // a bare * was counted above (or exposes nothing, in EXISTS)
        }
        children(item, scope, false, Set.of("alias"));
      }
    }
  }

  // ---- FROM -------------------------------------------------------------------------------------

  private void from(FromItem f, Scope scope) {
    if (f instanceof Table t) {
      table(t, scope);
    } else if (f instanceof TableFunction tf) {
      seen.put(tf, Boolean.TRUE);
      function(tf.getFunction() != null ? tf.getFunction() : tf, scope);
      scope.sources.add(new Source(alias(tf.getAlias()), null, null));
      children(tf, scope, true, Set.of("alias", "function"));
    } else if (f instanceof ParenthesedSelect ps) {
      // derived table (LATERAL or not): its columns were analysed where they were selected
      select(ps, scope, false);
      scope.sources.add(new Source(alias(ps.getAlias()), null, null));
    } else if (f instanceof ParenthesedFromItem pf) {
      seen.put(pf, Boolean.TRUE);
      int before = relations.size();
      from(pf.getFromItem(), scope);
      if (pf.getJoins() != null) {
        for (Join j : pf.getJoins()) {
          seen.put(j, Boolean.TRUE);
          from(j.getFromItem(), scope);
        }
        for (Join j : pf.getJoins()) {
          if (j.isNatural()) {
            wholeRows.addAll(scope.localBase());
          }
          children(j, scope, false, Set.of("fromItem"));
        }
      }
      children(pf, scope, false, Set.of("fromItem", "joins", "alias"));
      if (pf.getAlias() != null) {
        // (a JOIN b) AS j: j is a whole row of both, and j(x, y, z) renames their columns by position
        alias(pf.getAlias());
        for (int i = before; i < relations.size(); i++) {
          wholeRows.add(i);
        }
      }
    } else if (f instanceof Values v) {
      select(v, scope, false);
      scope.sources.add(new Source(alias(v.getAlias()), null, null));
    } else if (f != null) {
      node(f, scope, false);
    }
  }

  private Source table(Table t, Scope scope) {
    seen.put(t, Boolean.TRUE);
    String name = name(t.getName());
    String schema = t.getSchemaName() == null ? null : name(t.getSchemaName());
    String alias = alias(t.getAlias());
    Source src;
    if (schema == null && scope.cte(name)) {
      src = new Source(alias, name, null);
    } else {
      relations.add(new Relation(schema, name, false));
      src = new Source(alias, name, relations.size() - 1);
      if (t.getAlias() != null && t.getAlias().getAliasColumns() != null && !t.getAlias().getAliasColumns().isEmpty()) {
        // FROM t AS a(x, y, z) renames t's columns by position: x may be any of them, so t is read whole
        wholeRows.add(src.relation);
      }
    }
    scope.sources.add(src);
    children(t, scope, false, Set.of("alias", "partItems", "partDelimiters", "database"));
    return src;
  }

  // ---- expressions ------------------------------------------------------------------------------

  /** Any AST node: the scope-bearing kinds by name, everything else through its fields. */
  private void node(Object o, Scope scope, boolean inFunction) {
    if (o == null || seen.put(o, Boolean.TRUE) != null) {
      return;
    }
    if (o instanceof Collection<?> list) {
      // expression lists extend ArrayList: their elements are no declared field of theirs
      for (Object x : list) {
        value(x, scope, inFunction);
      }
    }
    if (o instanceof Select s) {
      seen.remove(s);
      select(s, scope, false);
    } else if (o instanceof ExistsExpression e) {
      Object right = e.getRightExpression();
      if (right instanceof ParenthesedSelect ps) {
        select(ps, new Scope(scope), true);
      } else {
        node(right, scope, inFunction);
      }
    } else if (o instanceof Column c) {
      column(c, scope);
    } else if (o instanceof AllTableColumns a) {
      Source src = a.getTable() == null ? null : scope.find(name(a.getTable().getName()));
      if (src == null) {
        wholeRows.addAll(scope.allBase());
      } else if (src.relation != null) {
        wholeRows.add(src.relation);
      }
    } else if (o instanceof FunctionAllColumns) {
      children(o, scope, true, Set.of());
    } else if (o instanceof AllColumns) {
      // count(*) and friends expose no column; a bare * in a select list is handled in plain()
      if (!inFunction) {
        wholeRows.addAll(scope.localBase());
      }
    } else if (o instanceof AnalyticExpression a) {
      functions.add(new FunctionCall(null, name(a.getName())));
      children(a, scope, true, Set.of("name"));
    } else if (o instanceof Function f) {
      function(f, scope);
    } else if (o instanceof CastExpression c) {
      if (c.getColDataType() != null) {
        types.add(typeName(c.getColDataType()));
      }
      children(c, scope, inFunction, Set.of("colDataType"));
    } else if (o instanceof ColDataType t) {
      types.add(typeName(t));
    } else if (o instanceof RowGetExpression r) {
      Object inner = r.getExpression();
      while (inner instanceof Parenthesis || inner instanceof Collection<?> one && one.size() == 1) {
        inner = inner instanceof Parenthesis p ? p.getExpression() : ((Collection<?>) inner).iterator().next();
      }
      if (inner instanceof Column c && c.getTable() == null) {
        Source src = scope.find(name(c.getColumnName()));
        if (src != null) {
          columns.add(new ColumnUse(src.alias != null ? src.alias : src.name, name(r.getColumnName()),
              src.relation == null ? List.of() : List.of(src.relation)));
          return;
        }
      }
      node(r.getExpression(), scope, inFunction);
      columns.add(new ColumnUse(null, name(r.getColumnName()), scope.allBase()));
    } else if (SPECIAL_CALLS.containsKey(o.getClass().getSimpleName())) {
      // function-call syntax the parser gives its own node: named so the allow-list sees it
      functions.add(new FunctionCall(null, specialName(o)));
      children(o, scope, true, Set.of());
    } else if (o instanceof VariableAssignment v) {
      assignsVariables = true;
      children(v, scope, inFunction, Set.of());
    } else if (o instanceof NextValExpression n) {
      functions.add(new FunctionCall(null, "nextval"));
    } else if (o instanceof Table t) {
      // a table outside FROM (FOR UPDATE OF, INTO, a write's target): counted as read, whole
      Source src = table(t, scope);
      if (src.relation != null) {
        wholeRows.add(src.relation);
      }
    } else if (o instanceof BinaryExpression b) {
      // long AND/OR chains are left-deep: walk the spine in a loop, not by recursion
      List<Object> rights = new ArrayList<>();
      Object cur = b;
      while (cur instanceof BinaryExpression be && cur.getClass() == b.getClass()) {
        seen.put(be, Boolean.TRUE);
        rights.add(be.getRightExpression());
        cur = be.getLeftExpression();
      }
      node(cur, scope, inFunction);
      for (int i = rights.size() - 1; i >= 0; i--) {
        node(rights.get(i), scope, inFunction);
      }
    } else {
      children(o, scope, inFunction, Set.of());
    }
  }

  /** Parser nodes that stand for a function call, by class, with the function's name. */
  private static final Map<String, String> SPECIAL_CALLS = Map.of("ExtractExpression", "extract",
      "TrimFunction", "trim", "TranscodingFunction", "convert", "XMLSerializeExpr", "xmlserialize",
      "JsonFunction", "json_object", "JsonAggregateFunction", "json_objectagg");

  private static String specialName(Object o) {
    String base = SPECIAL_CALLS.get(o.getClass().getSimpleName());
    String type = "";
    try {
      Object t = o.getClass().getMethod("getType").invoke(o);
      type = String.valueOf(t);
    } catch (ReflectiveOperationException noType) {
      // a node without a type keeps its base name
    }
    if (base.startsWith("json_") && !type.isEmpty() && !type.contains("OBJECT") && !type.equals("null")) {
      // JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_ARRAY(AGG): the node's type names the function
      return base.endsWith("agg") ? "json_" + type.toLowerCase(Locale.ROOT) + "agg"
          : "json_" + type.toLowerCase(Locale.ROOT);
    }
    return base;
  }

  /** Keywords the parser sometimes reads as calls: x = ANY (...), ARRAY(...), ROW(...). */
  private static final Set<String> NOT_FUNCTIONS = Set.of("any", "all", "some", "array", "row");

  private void function(Function f, Scope scope) {
    seen.put(f, Boolean.TRUE);
    List<String> parts = f.getMultipartName();
    if (parts != null && parts.size() == 1 && NOT_FUNCTIONS.contains(name(parts.get(0)).toLowerCase(Locale.ROOT))) {
      declared.add(name(parts.get(0)).toLowerCase(Locale.ROOT));
    } else if (parts != null && !parts.isEmpty()) {
      String n = name(parts.get(parts.size() - 1));
      String schema = parts.size() > 1 ? name(parts.get(parts.size() - 2)) : null;
      functions.add(new FunctionCall(schema, n.toLowerCase(Locale.ROOT)));
    }
    children(f, scope, true, Set.of("nameparts"));
  }

  private void column(Column c, Scope scope) {
    String col = name(c.getColumnName());
    Table qualifier = c.getTable();
    if (qualifier == null || qualifier.getName() == null) {
      Source src = scope.find(col);
      if (src != null && src.relation != null) {
        // PostgreSQL reads a bare relation name as the whole row: SELECT t FROM t, row_to_json(t)
        wholeRows.add(src.relation);
      }
      columns.add(new ColumnUse(null, col, scope.allBase()));
      return;
    }
    String q = name(qualifier.getName());
    Source src = scope.find(q);
    if (src == null) {
      // schema.table.column, or a qualifier no FROM item declares: it may be any of them
      columns.add(new ColumnUse(q, col, scope.allBase()));
    } else {
      columns.add(new ColumnUse(q, col, src.relation == null ? List.of() : List.of(src.relation)));
    }
  }

  // ---- generic walk -------------------------------------------------------------------------

  private static final Map<Class<?>, List<Field>> FIELDS = new ConcurrentHashMap<>();

  private void children(Object o, Scope scope, boolean inFunction, Set<String> skip) {
    for (Field f : fields(o.getClass())) {
      if (skip.contains(f.getName().toLowerCase(Locale.ROOT)) || skip.contains(f.getName())) {
        continue;
      }
      Object v;
      try {
        v = f.get(o);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("cannot read " + f, e);
      }
      value(v, scope, inFunction);
    }
  }

  private void value(Object v, Scope scope, boolean inFunction) {
    if (v == null) {
      return;
    }
    if (v instanceof Collection<?> c) {
      for (Object x : c) {
        value(x, scope, inFunction);
      }
    } else if (v instanceof Map<?, ?> m) {
      for (Object x : m.values()) {
        value(x, scope, inFunction);
      }
    } else if (v instanceof Optional<?> opt) {
      opt.ifPresent(x -> value(x, scope, inFunction));
    } else if (v instanceof Object[] arr) {
      for (Object x : arr) {
        value(x, scope, inFunction);
      }
    } else if (isAstNode(v.getClass())) {
      node(v, scope, inFunction);
    }
  }

  private static boolean isAstNode(Class<?> c) {
    return c.getName().startsWith("net.sf.jsqlparser.") && !c.isEnum()
        && !c.getName().startsWith("net.sf.jsqlparser.parser.");
  }

  private static List<Field> fields(Class<?> c) {
    return FIELDS.computeIfAbsent(c, k -> {
      List<Field> out = new ArrayList<>();
      for (Class<?> x = k; x != null && x != Object.class; x = x.getSuperclass()) {
        for (Field f : x.getDeclaredFields()) {
          int m = f.getModifiers();
          Class<?> t = f.getType();
          if (Modifier.isStatic(m) || Modifier.isTransient(m) || t.isPrimitive() || t == String.class
              || t.isEnum() || Number.class.isAssignableFrom(t) || t == Boolean.class) {
            continue;
          }
          f.setAccessible(true);
          out.add(f);
        }
      }
      return List.copyOf(out);
    });
  }

  // ---- names --------------------------------------------------------------------------------

  /** A name as the engine resolves it: quotes removed; unquoted names folded where the engine folds. */
  private String name(String raw) {
    if (raw == null) {
      return "";
    }
    String s = raw.strip();
    if (s.length() >= 2) {
      char a = s.charAt(0);
      char z = s.charAt(s.length() - 1);
      if (a == '"' && z == '"' || a == '`' && z == '`' || a == '\'' && z == '\'') {
        // the parser text quotes every identifier with "..." and every string with '...';
        // a string in a FROM clause is SQLite's single-quoted table name
        return s.substring(1, s.length() - 1).replace(String.valueOf(a) + a, String.valueOf(a));
      }
      if (a == '[' && z == ']') {
        return s.substring(1, s.length() - 1);
      }
    }
    return foldLower ? s.toLowerCase(Locale.ROOT) : s;
  }

  private String alias(net.sf.jsqlparser.expression.Alias a) {
    String n = a == null || a.getName() == null ? null : name(a.getName());
    if (n != null) {
      declared.add(n.toLowerCase(Locale.ROOT));
    }
    return n;
  }

  private String typeName(ColDataType t) {
    String dt = t.getDataType() == null ? "" : t.getDataType();
    int dot = dt.lastIndexOf('.');
    String last = dot >= 0 ? dt.substring(dot + 1) : dt;
    return name(last.replace("[]", "").strip()).toLowerCase(Locale.ROOT);
  }
}
