package dev.sluice.tools;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** sql_dialect_notes: how to write correct SQL for the connection's engine, before writing it. */
public final class SqlDialectNotesTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sql_dialect_notes");

  private final ConnectionDirectory directory;
  private final DialectNotes notes;

  public SqlDialectNotesTool(ConnectionDirectory directory, DialectNotes notes) {
    this.directory = directory;
    this.notes = notes;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    DialectNotes.Note note = notes.of(c.driver());
    JsonObject out = new JsonObject().put("connectionId", c.id()).put("driver", c.driver().wireName())
        .put("topics", new JsonArray(note.topics())).put("markdown", note.markdown());
    return Future.succeededFuture(ToolResult.of(out, note.markdown()));
  }
}
