package dev.sluice.sql.analysis;

import dev.sluice.sql.ErrorType;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonObject;

/**
 * Why a statement may not run, in words an agent can act on.
 *
 * @param rule a stable id, e.g. {@code multiple_statements}, {@code forbidden_function}
 * @param message what is wrong, naming the construct
 * @param rewrite how to write it so that it passes
 * @param position 1-based character of the problem in the agent's text, or null
 * @param syntax true when the text could not be read (answered as {@code syntax_error})
 */
public record Refusal(String rule, String message, String rewrite, Integer position, boolean syntax) {

  public static Refusal of(String rule, String message, String rewrite) {
    return new Refusal(rule, message, rewrite, null, false);
  }

  public Refusal at(Integer position) {
    return new Refusal(rule, message, rewrite, position, syntax);
  }

  /** The in-band error: {@code syntax_error} for unreadable text, else {@code validation_failed}. */
  public SqlError toError() {
    JsonObject details = new JsonObject().put("rule", rule).put("hint", rewrite);
    if (position != null) {
      details.put("position", position);
    }
    return new SqlError(syntax ? ErrorType.SYNTAX_ERROR : ErrorType.VALIDATION_FAILED, message, details);
  }
}
