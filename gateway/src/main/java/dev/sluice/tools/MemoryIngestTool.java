package dev.sluice.tools;

import dev.sluice.ingest.IngestBus;
import dev.sluice.mcp.McpBus;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * memory_ingest: leaves knowledge for the next agent as a wiki page. Returns a runId at once; the
 * run is durable (on disk before the id is returned) and executes in the background.
 */
public final class MemoryIngestTool implements Tool {

  private static final ToolSpec SPEC = new ToolSpec(
      "memory_ingest",
      "Memory Ingest",
      "Save knowledge worth remembering - a business rule, a metric definition, a schema gotcha, a "
          + "recurring finding - so later agents find it with wiki_search and discover_data. Pass "
          + "markdown starting with a '# Heading' (the heading names the page), e.g. '# Net revenue\\n"
          + "Net revenue is orders.total minus refunds...'. Pass connectionId whenever the knowledge "
          + "is about one database. Returns {runId} at once; poll memory_ingest_status. The same "
          + "content again is a no-op; different content under an existing heading is a conflict, "
          + "never an overwrite.",
      Schemas.object()
          .put("properties", new JsonObject()
              .put("content", Schemas.string("Markdown: '# Heading' then the knowledge and its context")
                  .put("minLength", 1))
              .put("connectionId", Schemas.string("Scope the page to this connection (required for "
                  + "knowledge about one database)").put("minLength", 1)))
          .put("required", new JsonArray().add("content"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject()
              .put("runId", Schemas.string())
              .put("status", Schemas.string()))
          .put("required", new JsonArray().add("runId")),
      new JsonObject().put("title", "Memory Ingest").put("readOnlyHint", false).put("destructiveHint", false)
          .put("idempotentHint", true).put("openWorldHint", false));

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
