package dev.sluice.tools;

import dev.sluice.ingest.IngestBus;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** memory_ingest_status: where a memory_ingest run is, and what it wrote. */
public final class MemoryIngestStatusTool implements Tool {

  private static final ToolSpec SPEC = new ToolSpec(
      "memory_ingest_status",
      "Memory Ingest Status",
      "Status of a memory_ingest run: queued, running, completed (with the wiki page keys written "
          + "or found unchanged) or failed (with the error: e.g. conflict when another page already "
          + "has that heading).",
      Schemas.object()
          .put("properties", new JsonObject()
              .put("runId", Schemas.string("The runId memory_ingest returned").put("minLength", 1)))
          .put("required", new JsonArray().add("runId"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject()
              .put("runId", Schemas.string())
              .put("status", new JsonObject().put("enum", new JsonArray().add("queued").add("running")
                  .add("completed").add("failed")))
              .put("pages", Schemas.arrayOf(Schemas.object()))
              .put("warnings", Schemas.arrayOf(Schemas.string())))
          .put("required", new JsonArray().add("runId").add("status")),
      new JsonObject().put("title", "Memory Ingest Status").put("readOnlyHint", true)
          .put("destructiveHint", false).put("openWorldHint", false));

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    return ctx.vertx().eventBus().<JsonObject>request(IngestBus.STATUS, new JsonObject().put("runId", args.getString("runId"))
            .put("principal", ctx.principal()))
        .recover(err -> Future.failedFuture(SqlError.from(err)))
        .map(m -> {
          JsonObject r = m.body();
          StringBuilder text = new StringBuilder("run ").append(r.getString("runId")).append(": ")
              .append(r.getString("status"));
          r.getJsonArray("pages", new JsonArray()).forEach(p -> text.append("; page ")
              .append(((JsonObject) p).getString("key")).append(" (").append(((JsonObject) p).getString("action"))
              .append(')'));
          if (r.getJsonObject("error") != null) {
            text.append("; ").append(r.getJsonObject("error").getString("type")).append(": ")
                .append(r.getJsonObject("error").getString("message"));
          }
          return ToolResult.of(r, text.toString());
        });
  }
}
