package dev.sluice.mcp.tool;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * One MCP tool. {@link #call} runs on the owning session's event loop and must not block; it
 * returns the structured result, or fails with a {@link dev.sluice.sql.SqlError} that becomes an
 * in-band error result ({@code isError: true}).
 */
public interface Tool {

  ToolSpec spec();

  /**
   * @param args arguments already validated against {@link ToolSpec#inputSchema()}
   */
  Future<ToolResult> call(JsonObject args, ToolContext ctx);

  /**
   * What the audit trail records of this call's arguments: by default all of them; a tool with
   * secret arguments returns a redacted copy.
   */
  default JsonObject auditArgs(JsonObject args) {
    return args;
  }
}
