package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.schema.Table;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.TableFunction;
import net.sf.jsqlparser.util.TablesNamesFinder;

/**
 * What one statement reads: every relation (through joins, subqueries, set operations, lateral
 * and CTE bodies; a CTE's own name is not a relation), every column reference with the relation
 * or alias qualifying it, {@code *} and {@code t.*} selections, and table functions. The input of
 * a table/column policy; parsed with the guard's own parser settings.
 */
public record StatementRelations(
    Set<String> relations,
    List<ColumnRef> columns,
    boolean bareStar,
    List<String> starQualifiers,
    List<String> tableFunctions,
    Map<String, String> aliases) {

  /** A column as written: its qualifier (relation, alias or null) and name, quotes removed. */
  public record ColumnRef(String qualifier, String name) {}

  /** @throws IllegalArgumentException when the statement cannot be parsed */
  public static StatementRelations read(Dialect dialect, String sql) {
    Statement st;
    try {
      st = SqlParsing.statement(dialect, sql);
    } catch (Exception | Error e) {
      throw new IllegalArgumentException("the statement could not be parsed", e);
    }
    List<ColumnRef> columns = new ArrayList<>();
    List<String> starQualifiers = new ArrayList<>();
    List<String> functions = new ArrayList<>();
    Map<String, String> aliases = new HashMap<>();
    TablesNamesFinder<Void> finder = new TablesNamesFinder<>() {
      @Override
      public <S> Void visit(Column c, S ctx) {
        columns.add(new ColumnRef(c.getTable() == null ? null : unquote(c.getTable().getFullyQualifiedName()),
            unquote(c.getColumnName())));
        return super.visit(c, ctx);
      }

      @Override
      public <S> Void visit(AllTableColumns c, S ctx) {
        starQualifiers.add(unquote(c.getTable().getFullyQualifiedName()));
        return super.visit(c, ctx);
      }

      @Override
      public <S> Void visit(TableFunction t, S ctx) {
        functions.add(t.getFunction().getName().toLowerCase(java.util.Locale.ROOT));
        return super.visit(t, ctx);
      }

      @Override
      public <S> Void visit(Table t, S ctx) {
        if (t.getAlias() != null) {
          aliases.put(unquote(t.getAlias().getName()).toLowerCase(java.util.Locale.ROOT),
              unquote(t.getFullyQualifiedName()));
        }
        return super.visit(t, ctx);
      }
    };
    Set<String> relations = new LinkedHashSet<>();
    finder.getTables(st).forEach(t -> relations.add(unquote(t)));
    return new StatementRelations(relations, columns, selectListStar(dialect, sql), starQualifiers, functions,
        aliases);
  }

  /**
   * Whether a select list holds a bare {@code *}: a {@code *} right after SELECT, DISTINCT, ALL or
   * a comma. The parser's AllColumns also stands for the argument of {@code count(*)}, which
   * exposes no column and must not count.
   */
  static boolean selectListStar(Dialect dialect, String sql) {
    List<SqlTokens.Token> tokens = SqlTokens.scan(sql, dialect).tokens;
    for (int i = 1; i < tokens.size(); i++) {
      SqlTokens.Token t = tokens.get(i);
      if (t.type() == SqlTokens.Type.SYMBOL && t.text().equals("*")) {
        SqlTokens.Token prev = tokens.get(i - 1);
        if (prev.is("select") || prev.is("distinct") || prev.is("all") || prev.text().equals(",")) {
          return true;
        }
      }
    }
    return false;
  }

  /** {@code "main"."orders"}, {@code `db`.`t`}, {@code [t]} → {@code main.orders}, {@code db.t}, {@code t}. */
  public static String unquote(String name) {
    StringBuilder out = new StringBuilder();
    for (String part : splitDotted(name)) {
      if (out.length() > 0) {
        out.append('.');
      }
      String p = part.strip();
      if (p.length() >= 2 && (p.startsWith("\"") && p.endsWith("\"") || p.startsWith("`") && p.endsWith("`")
          || p.startsWith("[") && p.endsWith("]"))) {
        p = p.substring(1, p.length() - 1);
      }
      out.append(p);
    }
    return out.toString();
  }

  private static List<String> splitDotted(String name) {
    List<String> parts = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    char quote = 0;
    for (char c : name.toCharArray()) {
      if (quote != 0) {
        cur.append(c);
        if (c == quote) {
          quote = 0;
        }
      } else if (c == '"' || c == '`') {
        quote = c;
        cur.append(c);
      } else if (c == '[') {
        quote = ']';
        cur.append(c);
      } else if (c == '.') {
        parts.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    parts.add(cur.toString());
    return parts;
  }
}
