package dev.sluice.sql.guard;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonObject;

/**
 * The guard's answer.
 *
 * @param allowed true when the statement may run
 * @param sql the statement to run (trailing semicolon and surrounding blanks removed) when allowed;
 *     for an {@code unparseable} refusal, the text the parser read (to locate the error)
 * @param rule a stable rule id when refused, e.g. {@code multiple_statements}, {@code
 *     data_modifying_cte}, {@code forbidden_function}
 * @param message what is wrong, naming the offending construct
 * @param rewrite how to rewrite it into something the guard accepts
 */
public record GuardVerdict(boolean allowed, String sql, String rule, String message, String rewrite) {

  public static GuardVerdict allow(String sql) {
    return new GuardVerdict(true, sql, null, null, null);
  }

  public static GuardVerdict refuse(String rule, String message, String rewrite) {
    return new GuardVerdict(false, null, rule, message, rewrite);
  }

  /**
   * The in-band error for a refusal: {@code syntax_error} (with {@code position} when known) for
   * text the parser cannot read, {@code validation_failed} for everything else.
   */
  public SqlError toError() {
    JsonObject details = new JsonObject().put("rule", rule).put("hint", rewrite);
    if ("unparseable".equals(rule)) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("at line (\\d+), column (\\d+)").matcher(message);
      if (m.find() && sql != null) {
        details.put("position", offset(sql, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
      }
      return new SqlError(ErrorType.SYNTAX_ERROR, message, details);
    }
    return new SqlError(ErrorType.VALIDATION_FAILED, message, details);
  }

  /** 1-based character position of a 1-based line and column. */
  private static int offset(String text, int line, int column) {
    int pos = 0;
    for (int l = 1; l < line; l++) {
      int nl = text.indexOf('\n', pos);
      if (nl < 0) {
        break;
      }
      pos = nl + 1;
    }
    return pos + column;
  }
}
