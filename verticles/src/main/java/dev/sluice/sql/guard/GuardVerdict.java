package dev.sluice.sql.guard;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonObject;

/**
 * The guard's answer.
 *
 * @param allowed true when the statement may run
 * @param sql the statement to run (trailing semicolon and surrounding blanks removed) when allowed
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

  /** The in-band {@code validation_failed} error for a refusal. */
  public SqlError toError() {
    return new SqlError(ErrorType.VALIDATION_FAILED, message,
        new JsonObject().put("rule", rule).put("hint", rewrite));
  }
}
