package dev.sluice.tools;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.discovery.DiscoveryIndex;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.semantic.SemanticLayer;
import dev.sluice.semantic.SemanticLayers;
import dev.sluice.semantic.SemanticSource;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * discover_data: one ranked list of wiki pages, tables and columns for a natural-language query.
 * Refs only; the agent dereferences them with entity_details or wiki_read.
 */
public final class DiscoverDataTool implements Tool {

  static final List<String> KINDS = List.of("wiki", "sl_source", "sl_measure", "sl_dimension", "table", "column");

  private static final ToolSpec SPEC = ToolSpec.resource("discover_data");

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
    Map<String, SemanticLayer> layers = new ConcurrentHashMap<>();
    return source.current().compose(built -> directory.policy().prime(ctx.principal(), built.snapshots().values())
        .compose(v -> visibleLayers(ctx.principal(), layers)).map(v -> built))
        .compose(built -> source.search(built, args.getString("query"), scope, kinds, limit * 3)
        .map(ranked -> {
      // hidden tables and columns are dropped after ranking, so ask for more than the limit
      List<DiscoveryIndex.Hit> hits = ranked.stream()
          .filter(h -> visible(h, ctx.principal(), built, layers)).limit(limit).toList();
      JsonArray refs = new JsonArray();
      StringBuilder text = new StringBuilder();
      for (DiscoveryIndex.Hit h : hits) {
        JsonObject ref = ref(h);
        SemanticLayer layer = layers.get(String.valueOf(h.entry().connectionId()));
        if (h.entry().kind().startsWith("sl_") && layer != null) {
          // the index holds the whole layer: summary and snippet come from what the caller may see
          semanticRef(ref, h, layer);
        }
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

  /**
   * The semantic layer of each connection the caller is governed on, as it may see it (sources over
   * hidden tables and fields over hidden columns taken out); ungoverned connections are left out.
   */
  private Future<Void> visibleLayers(String principal, Map<String, SemanticLayer> out) {
    SemanticLayers all = source.semantic();
    if (all == null) {
      return Future.succeededFuture();
    }
    List<Future<?>> loads = new ArrayList<>();
    for (ConnectionConfig c : directory.all(principal)) {
      if (directory.policy().governs(principal, c.id())) {
        loads.add(all.of(c.id(), principal, directory.policy()).onSuccess(l -> out.put(c.id(), l)));
      }
    }
    return Future.all(loads).mapEmpty();
  }

  private boolean visible(DiscoveryIndex.Hit h, String principal, DiscoverySource.Built built,
      Map<String, SemanticLayer> layers) {
    var e = h.entry();
    if (e.kind().startsWith("sl_") && directory.policy().governs(principal, String.valueOf(e.connectionId()))) {
      return semanticVisible(e.kind(), e.id(), layers.get(e.connectionId()));
    }
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

  /** Whether a semantic source, measure or dimension id is in the caller's layer. */
  private static boolean semanticVisible(String kind, String id, SemanticLayer layer) {
    if (layer == null) {
      return false;
    }
    int dot = id.indexOf('.');
    SemanticSource src = layer.sources().get(dot < 0 ? id : id.substring(0, dot));
    if (src == null || dot < 0) {
      return src != null;
    }
    String field = id.substring(dot + 1);
    return kind.equals("sl_measure") ? src.measures().containsKey(field) : src.dimensions().containsKey(field);
  }

  /** Summary and snippet of a semantic ref from the caller's layer (the indexed ones may name hidden fields). */
  private static void semanticRef(JsonObject ref, DiscoveryIndex.Hit h, SemanticLayer layer) {
    String id = h.entry().id();
    int dot = id.indexOf('.');
    SemanticSource src = layer.sources().get(dot < 0 ? id : id.substring(0, dot));
    if (dot < 0) {
      List<String> fields = new ArrayList<>(src.measures().keySet());
      fields.addAll(src.dimensions().keySet());
      ref.put("summary", src.description())
          .put("snippet", fields.isEmpty() ? null : String.join(", ", fields.subList(0, Math.min(5, fields.size()))));
      return;
    }
    String field = id.substring(dot + 1);
    String description = h.entry().kind().equals("sl_measure") ? src.measures().get(field).description()
        : src.dimensions().get(field).description();
    ref.put("summary", description);
    if ("description".equals(h.matchedOn())) {
      ref.put("snippet", description);
    }
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
