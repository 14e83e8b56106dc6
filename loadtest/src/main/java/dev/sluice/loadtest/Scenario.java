package dev.sluice.loadtest;

import io.vertx.core.json.JsonObject;

/**
 * One kind of call a virtual agent makes.
 *
 * @param name scenario name used in --mix and in the report
 * @param tool MCP tool to call
 * @param arguments tool arguments
 * @param expectedError error_type this scenario is meant to provoke (null: success expected)
 * @param cancelAfterMs send notifications/cancelled this long after the call started (0: never)
 * @param directSql the same SQL for the direct-driver baseline (null: not comparable)
 */
public record Scenario(String name, String tool, JsonObject arguments, String expectedError,
    long cancelAfterMs, String directSql) {

  /** Outcome recorded when a cancelled call's stream ends without a result, as intended. */
  public static final String CANCELLED = "cancelled";

  public boolean cancels() {
    return cancelAfterMs > 0;
  }
}
