package dev.sluice.tools;

import dev.sluice.ingest.IngestBus;
import dev.sluice.mcp.McpBus;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * memory_ingest: leaves knowledge for the next agent as a wiki page. Returns a runId at once; the
 * run is durable (on disk before the id is returned) and executes in the background.
 */
public final class MemoryIngestTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("memory_ingest");

  private final ConnectionDirectory directory;

  public MemoryIngestTool(ConnectionDirectory directory) {
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    if (args.getString("connectionId") != null) {
      directory.require(args.getString("connectionId"), ctx.principal());
    }
    JsonObject submit = new JsonObject().put("content", args.getString("content"))
        .put("connectionId", args.getString("connectionId")).put("source", "memory_ingest")
        .put("sessionId", ctx.sessionId()).put("notifyAddress", McpBus.notifyAddressOf(ctx.sessionId()))
        .put("principal", ctx.principal());
    return ctx.vertx().eventBus().<JsonObject>request(IngestBus.SUBMIT, submit)
        .recover(err -> Future.failedFuture(SqlError.from(err)))
        .map(m -> ToolResult.of(m.body(), "run " + m.body().getString("runId") + " queued; poll "
            + "memory_ingest_status {runId} (progress also arrives as notifications/message at your log level)"));
  }
}
