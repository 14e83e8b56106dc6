package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;

/** tool.start's arguments: the JSON a client sent, cut at a size so one huge SQL text cannot flood the log. */
class ToolCallLogTest {

  @Test
  void argumentsAreLoggedAsTheirJsonAndCutWhenLong() {
    JsonObject args = new JsonObject().put("connectionId", "demo").put("sql", "SELECT 'é \" \\n' FROM t")
        .put("maxRows", 10).put("params", new JsonArray().add(1).addNull().add(new JsonObject().put("k", true)));
    assertEquals(args.encode(), ToolCallLog.capped(args));
    assertEquals("{}", ToolCallLog.capped(null));

    JsonObject huge = new JsonObject().put("sql", "x".repeat(5_000));
    String whole = huge.encode();
    String logged = ToolCallLog.capped(huge);
    assertTrue(logged.startsWith(whole.substring(0, ToolCallLog.MAX_ARGS_CHARS)), logged);
    assertEquals(whole.substring(0, ToolCallLog.MAX_ARGS_CHARS) + "...[" + (whole.length() - ToolCallLog.MAX_ARGS_CHARS)
        + " more chars]", logged);
  }
}
