package dev.sluice.semantic;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.DateTimeLiteralExpression;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.schema.Column;

/**
 * An sl_query filter, structured ({@code {field, op, value}}) or written as a restricted
 * expression ({@code "orders.status IN ('paid', 'shipped') AND orders.total >= 100"}). The text
 * is read by JSqlParser and accepted only as AND / OR / NOT over comparisons of one semantic field
 * with literal values; every literal becomes a bound parameter, so no text of the expression ever
 * reaches the SQL.
 */
sealed interface FilterExpression {

  /** Longest expression text accepted: a filter, not a program. */
  int MAX_TEXT = 2_000;

  Set<String> OPS = Set.of("=", "!=", ">", ">=", "<", "<=", "in", "not_in", "contains", "like", "not_like",
      "is_null", "is_not_null", "during");

  /** Every condition holds. */
  record All(List<FilterExpression> parts) implements FilterExpression {}

  /** At least one condition holds. */
  record Any(List<FilterExpression> parts) implements FilterExpression {}

  record Not(FilterExpression inner) implements FilterExpression {}

  /** {@code field op value}; value is a list for in / not_in, absent for the null tests. */
  record Condition(String field, String op, Object value) implements FilterExpression {}

  /** The fields this filter reads, in order of appearance. */
  default List<String> fields() {
    List<String> out = new ArrayList<>();
    collect(this, out);
    return out;
  }

  private static void collect(FilterExpression e, List<String> out) {
    if (e instanceof All a) {
      a.parts().forEach(p -> collect(p, out));
    } else if (e instanceof Any a) {
      a.parts().forEach(p -> collect(p, out));
    } else if (e instanceof Not n) {
      collect(n.inner(), out);
    } else {
      out.add(((Condition) e).field());
    }
  }

  /** The top-level AND split into its parts; each part can be placed on its own. */
  default List<FilterExpression> conjuncts() {
    if (this instanceof All a) {
      List<FilterExpression> out = new ArrayList<>();
      a.parts().forEach(p -> out.addAll(p.conjuncts()));
      return out;
    }
    return List.of(this);
  }

  /** One element of sl_query's {@code filters}: a {@code {field, op, value}} object or an expression string. */
  static FilterExpression of(Object filter) {
    if (filter instanceof String text) {
      return parse(text);
    }
    if (!(filter instanceof JsonObject f)) {
      throw invalid("each filter is an object {field, op, value} or an expression string, got " + filter);
    }
    String field = f.getString("field", f.getString("member", f.getString("dimension")));
    String op = f.getString("op", f.getString("operator", "=")).toLowerCase(Locale.ROOT);
    if (!OPS.contains(op)) {
      throw invalid("filter op '" + op + "' is not one of " + OPS);
    }
    if (field == null) {
      throw invalid("filter " + f.encode() + " names no field");
    }
    return new Condition(field, op, f.getValue("value"));
  }

  /** Reads a restricted expression; anything beyond comparisons with literals is refused by name. */
  static FilterExpression parse(String text) {
    if (text.isBlank()) {
      throw invalid("filter expression is empty");
    }
    if (text.length() > MAX_TEXT) {
      throw invalid("filter expression is " + text.length() + " characters; at most " + MAX_TEXT);
    }
    Expression e;
    try {
      e = CCJSqlParserUtil.parseCondExpression(text, false);
    } catch (Exception | StackOverflowError ex) {
      throw invalid("cannot read filter expression \"" + text + "\": write comparisons such as "
          + "orders.status = 'paid' joined by AND / OR");
    }
    return read(e, text);
  }

  private static FilterExpression read(Expression e, String text) {
    if (e instanceof Parenthesis p) {
      return read(p.getExpression(), text);
    }
    if (e instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?> p
        && p.size() == 1) {
      return read(p.get(0), text);
    }
    if (e instanceof AndExpression a) {
      return new All(List.of(read(a.getLeftExpression(), text), read(a.getRightExpression(), text)));
    }
    if (e instanceof OrExpression o) {
      return new Any(List.of(read(o.getLeftExpression(), text), read(o.getRightExpression(), text)));
    }
    if (e instanceof NotExpression n) {
      return new Not(read(n.getExpression(), text));
    }
    if (e instanceof ComparisonOperator c) {
      String op = c.getStringExpression().equals("<>") ? "!=" : c.getStringExpression();
      if (!OPS.contains(op)) {
        throw unsupported(e, text);
      }
      if (c.getLeftExpression() instanceof Column col) {
        return new Condition(field(col), op, literal(c.getRightExpression(), text));
      }
      if (c.getRightExpression() instanceof Column col) {
        // 100 < orders.total reads as orders.total > 100
        return new Condition(field(col), flip(op), literal(c.getLeftExpression(), text));
      }
      throw invalid("filter expression \"" + text + "\": in " + c + " one side must be a field such as "
          + "orders.status, the other a literal value (functions, casts and arithmetic are not allowed)");
    }
    if (e instanceof InExpression in) {
      if (!(in.getRightExpression() instanceof ExpressionList<?> list) || list.isEmpty()) {
        throw invalid("filter expression \"" + text + "\": IN takes a list of values, e.g. IN ('a', 'b')");
      }
      JsonArray values = new JsonArray();
      for (Object v : list) {
        values.add(literal((Expression) v, text));
      }
      return new Condition(field(column(in.getLeftExpression(), in, text)), in.isNot() ? "not_in" : "in", values);
    }
    if (e instanceof Between b) {
      String f = field(column(b.getLeftExpression(), b, text));
      FilterExpression range = new All(List.of(
          new Condition(f, ">=", literal(b.getBetweenExpressionStart(), text)),
          new Condition(f, "<=", literal(b.getBetweenExpressionEnd(), text))));
      return b.isNot() ? new Not(range) : range;
    }
    if (e instanceof IsNullExpression n) {
      return new Condition(field(column(n.getLeftExpression(), n, text)), n.isNot() ? "is_not_null" : "is_null", null);
    }
    if (e instanceof LikeExpression l && l.getLikeKeyWord() == LikeExpression.KeyWord.LIKE && l.getEscape() == null) {
      Object pattern = literal(l.getRightExpression(), text);
      if (!(pattern instanceof String)) {
        throw invalid("filter expression \"" + text + "\": LIKE takes a text pattern");
      }
      return new Condition(field(column(l.getLeftExpression(), l, text)), l.isNot() ? "not_like" : "like", pattern);
    }
    throw unsupported(e, text);
  }

  private static Column column(Expression e, Expression whole, String text) {
    if (e instanceof Column c) {
      return c;
    }
    throw invalid("filter expression \"" + text + "\": the left side of " + whole + " must be a field such as "
        + "orders.status");
  }

  private static String field(Column c) {
    return c.getFullyQualifiedName().replace("\"", "").replace("`", "");
  }

  /** A literal value: text, a number, a boolean, or a DATE/TIMESTAMP literal (as its text). */
  private static Object literal(Expression e, String text) {
    if (e instanceof StringValue s) {
      return s.getValue().replace("''", "'");
    }
    if (e instanceof LongValue l) {
      return l.getStringValue().length() > 18 ? new java.math.BigDecimal(l.getStringValue()).toPlainString()
          : l.getValue();
    }
    if (e instanceof DoubleValue d) {
      return d.getValue();
    }
    if (e instanceof BooleanValue b) {
      return b.getValue();
    }
    if (e instanceof DateTimeLiteralExpression d) {
      String v = d.getValue();
      return v.length() >= 2 && v.startsWith("'") && v.endsWith("'") ? v.substring(1, v.length() - 1) : v;
    }
    if (e instanceof SignedExpression s && s.getSign() == '-') {
      Object v = literal(s.getExpression(), text);
      if (v instanceof Long l) {
        return -l;
      }
      if (v instanceof Double d) {
        return -d;
      }
    }
    if (e instanceof Column c && c.getTable() == null
        && List.of("true", "false").contains(c.getColumnName().toLowerCase(Locale.ROOT))) {
      return Boolean.parseBoolean(c.getColumnName().toLowerCase(Locale.ROOT));
    }
    throw invalid("filter expression \"" + text + "\": " + e + " is not a literal value; compare a field with "
        + "text in single quotes, a number, true/false or DATE '...' (columns, functions and subqueries are "
        + "not allowed)");
  }

  private static String flip(String op) {
    return switch (op) {
      case ">" -> "<";
      case ">=" -> "<=";
      case "<" -> ">";
      case "<=" -> ">=";
      default -> op;
    };
  }

  private static SqlError unsupported(Expression e, String text) {
    return invalid("filter expression \"" + text + "\": " + e.getClass().getSimpleName().replaceAll("Expression$", "")
        + " (" + e + ") is not allowed; use =, <>, <, <=, >, >=, IN, BETWEEN, LIKE, IS [NOT] NULL, AND, OR, NOT");
  }

  private static SqlError invalid(String message) {
    return new SqlError(ErrorType.INVALID_ARGUMENT, message).with("rule", "filter_expression");
  }
}
