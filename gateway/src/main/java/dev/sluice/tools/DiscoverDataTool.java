package dev.sluice.tools;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.discovery.DiscoveryIndex;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * discover_data: one ranked list of wiki pages, tables and columns for a natural-language query.
 * Refs only; the agent dereferences them with entity_details or wiki_read.
 */
public final class DiscoverDataTool implements Tool {

  static final List<String> KINDS = List.of("wiki", "sl_source", "sl_measure", "sl_dimension", "table", "column");

  private static final ToolSpec SPEC = new ToolSpec(
      "discover_data",
      "Discover data",
      "Search everything the gateway knows - wiki pages, tables and columns of every connection's "
          + "catalog snapshot - with one natural-language query (e.g. 'orders shipped per country', "
          + "'customer e-mail'). Returns ranked refs (kind, id, score 0-1, summary, snippet, what "
          + "matched, connectionId, tableRef, columnName). Call it first; then entity_details on "
          + "table/column refs or wiki_read on wiki refs. Never guess table names.",
      Schemas.object()
          .put("properties", new JsonObject()
              .put("query", Schemas.string("What you are looking for, in words").put("minLength", 1))
              .put("connectionId", Schemas.string("Search one connection (default: all)").put("minLength", 1))
              .put("kinds", new JsonObject().put("type", "array")
                  .put("items", new JsonObject().put("enum", new JsonArray(KINDS)))
                  .put("description", "Only these kinds (default: all)"))
              .put("limit", Schemas.integer("Refs to return (default 15)", 1, 50).put("default", 15)))
          .put("required", new JsonArray().add("query"))
          .put("additionalProperties", false),
      Schemas.object()
          .put("properties", new JsonObject()
              .put("refs", new JsonObject().put("type", "array").put("items", Schemas.object()
                  .put("properties", new JsonObject()
                      .put("kind", Schemas.string())
                      .put("id", Schemas.string())
                      .put("score", new JsonObject().put("type", "number").put("minimum", 0).put("maximum", 1))
                      .put("summary", Schemas.nullable("string"))
                      .put("snippet", Schemas.nullable("string"))
                      .put("matchedOn", Schemas.string())
                      .put("lanes", Schemas.arrayOf(Schemas.string())))
                  .put("required", new JsonArray().add("kind").add("id").add("score").add("matchedOn")))))
          .put("required", new JsonArray().add("refs")),
      ToolSpec.readOnlyAnnotations("Discover data", true));

  private final ConnectionDirectory directory;
  private final DiscoverySource source;

  public DiscoverDataTool(ConnectionDirectory directory, DiscoverySource source) {
    this.directory = directory;
    this.source = source;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    String connectionId = args.getString("connectionId");
    List<String> scope = directory.searchScope(connectionId, ctx.principal());
    Set<String> kinds = new LinkedHashSet<>();
    args.getJsonArray("kinds", new JsonArray()).forEach(k -> kinds.add(String.valueOf(k)));
    int limit = args.getInteger("limit", 15);
    return source.current().compose(built -> directory.policy().prime(ctx.principal(), built.snapshots().values())
        .map(v -> built)).compose(built -> source.search(built, args.getString("query"), scope, kinds, limit * 3)
        .map(ranked -> {
      // hidden tables and columns are dropped after ranking, so ask for more than the limit
      List<DiscoveryIndex.Hit> hits = ranked.stream()
          .filter(h -> visible(h, ctx.principal(), built)).limit(limit).toList();
      JsonArray refs = new JsonArray();
      StringBuilder text = new StringBuilder();
      for (DiscoveryIndex.Hit h : hits) {
        JsonObject ref = ref(h);
        if ("table".equals(h.entry().kind()) && "name".equals(h.matchedOn())
            && directory.policy().governs(ctx.principal(), h.entry().connectionId())) {
          // the stored snippet lists column names; a governed principal sees only its own
          List<String> mine = h.entry().columnNames().stream().filter(col -> directory.policy()
              .columnVisible(ctx.principal(), h.entry().connectionId(), h.entry().tableRef(), col)).limit(5).toList();
          ref.put("snippet", mine.isEmpty() ? null : String.join(", ", mine));
        }
        refs.add(ref);
        text.append(String.format("%.2f %s %s", h.score(), h.entry().kind(), h.entry().id()));
        if (h.entry().connectionId() != null) {
          text.append(" [").append(h.entry().connectionId()).append(']');
        }
        if (ref.getString("snippet") != null) {
          text.append(" - ").append(ref.getString("snippet"));
        }
        text.append('\n');
      }
      JsonObject out = new JsonObject().put("refs", refs);
      List<String> unscanned = built.unscanned().stream()
          .filter(id -> scope == null || scope.contains(id)).toList();
      if (!unscanned.isEmpty()) {
        out.put("unscanned", new JsonArray(unscanned));
        text.append("(no catalog snapshot yet for ").append(String.join(", ", unscanned))
            .append(": their tables are not searched; the start-up scan may still be running)\n");
      }
      if (refs.isEmpty()) {
        text.append("No matches. Try other words, a table or column name, or dictionary_search for a literal value.");
      }
      return ToolResult.of(out, text.toString().trim());
    }));
  }

  private boolean visible(DiscoveryIndex.Hit h, String principal, DiscoverySource.Built built) {
    var e = h.entry();
    if (e.tableRef() == null) {
      return true;
    }
    CatalogSnapshot snapshot = built.snapshots().get(e.connectionId());
    if (snapshot != null && !directory.policy().tableVisible(principal, snapshot, e.tableRef())) {
      return false; // a view that reads what the principal may not
    }
    return e.columnName() == null
        ? directory.policy().tableVisible(principal, e.connectionId(), e.tableRef())
        : directory.policy().columnVisible(principal, e.connectionId(), e.tableRef(), e.columnName());
  }

  static JsonObject ref(DiscoveryIndex.Hit h) {
    JsonObject ref = new JsonObject()
        .put("kind", h.entry().kind())
        .put("id", h.entry().id())
        .put("score", Math.round(h.score() * 10_000) / 10_000.0)
        .put("summary", h.summary())
        .put("snippet", h.snippet())
        .put("matchedOn", h.matchedOn())
        .put("lanes", new JsonArray(h.lanes().stream().map(l -> l.wireName()).toList()));
    if (h.entry().connectionId() != null) {
      ref.put("connectionId", h.entry().connectionId());
    }
    if (h.entry().tableRef() != null) {
      ref.put("tableRef", TableResolver.refJson(h.entry().tableRef()));
    }
    if (h.entry().columnName() != null) {
      ref.put("columnName", h.entry().columnName());
    }
    return ref;
  }
}
