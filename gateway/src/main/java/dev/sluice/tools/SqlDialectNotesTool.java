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

  private static final ToolSpec SPEC = new ToolSpec(
      "sql_dialect_notes",
      "SQL dialect notes",
      "Read the SQL dialect notes for a connection's engine (PostgreSQL, MySQL/MariaDB or SQLite) "
          + "before writing SQL for it: qualified names, identifier quoting and case, dates and "
          + "intervals, top-N, JSON access, safe casts, integer division, rounding, and string "
          + "aggregation order, each with a checked example.",
      Schemas.object()
          .put("properties", new JsonObject()
              .put("connectionId", Schemas.connectionId()))
          .put("required", new JsonArray().add("connectionId"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject()
              .put("connectionId", Schemas.string())
              .put("driver", Schemas.string())
              .put("topics", Schemas.arrayOf(Schemas.string()))
              .put("markdown", Schemas.string()))
          .put("required", new JsonArray().add("connectionId").add("driver").add("topics").add("markdown")),
      ToolSpec.readOnlyAnnotations("SQL dialect notes", true));

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
