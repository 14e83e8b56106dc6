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

  /**
   * Whether a call may send the client more than its progress and its result: log messages, a
   * request of its own (sampling, elicitation), or a deliberate stream close (SEP-1699). Such a
   * call is always answered over SSE; any other call only when it asked for progress or its
   * session for log messages, and otherwise as one JSON body.
   */
  default boolean talksToClient() {
    return false;
  }
}
