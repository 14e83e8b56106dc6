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

  private static final ToolSpec SPEC = ToolSpec.resource("memory_ingest_status");

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
