package dev.sluice.tools;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * dictionary_search: which column holds a literal ("Berlin", "shipped"), from the values the
 * catalog scan sampled. A hit is certain; a miss only says the value was not in the sample, and
 * the output says so per connection.
 */
public final class DictionarySearchTool implements Tool {

  /** Matches per value; a very short substring could otherwise list most of the catalog. */
  static final int MAX_MATCHES = 25;

  private static final ToolSpec SPEC = ToolSpec.resource("dictionary_search");

  private final ConnectionDirectory directory;
  private final CatalogAccess catalog;

  public DictionarySearchTool(ConnectionDirectory directory, CatalogAccess catalog) {
    this.directory = directory;
    this.catalog = catalog;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    String only = args.getString("connectionId");
    List<ConnectionConfig> targets = only == null ? directory.all(ctx.principal()) : List.of(directory.require(only, ctx.principal()));
    List<Future<Optional<CatalogSnapshot>>> loads = new ArrayList<>();
    targets.forEach(c -> loads.add(catalog.current(c.id())));
    return Future.all(loads).compose(all -> directory.policy().prime(ctx.principal(),
        loads.stream().map(Future::result).flatMap(Optional::stream).toList())).map(primed -> {
      List<String> values = args.getJsonArray("values").stream().map(String::valueOf).toList();
      JsonArray searched = new JsonArray();
      List<String> statuses = new ArrayList<>();
      for (int i = 0; i < targets.size(); i++) {
        Optional<CatalogSnapshot> s = loads.get(i).result();
        String status = s.isEmpty() ? "no_profile_artifact"
            : s.get().profile().profiledColumns() == 0 ? "no_candidate_columns" : "ready";
        statuses.add(status);
        searched.add(new JsonObject().put("connectionId", targets.get(i).id()).put("status", status)
            .put("coverage", coverage(s)));
      }
      JsonArray results = new JsonArray();
      StringBuilder text = new StringBuilder();
      for (String value : values) {
        String needle = value.toLowerCase(Locale.ROOT);
        JsonArray matches = new JsonArray();
        JsonArray misses = new JsonArray();
        for (int i = 0; i < targets.size(); i++) {
          int before = matches.size();
          if (statuses.get(i).equals("ready")) {
            match(directory.policy().visible(ctx.principal(), loads.get(i).result().get()), needle, matches);
          }
          if (matches.size() == before) {
            misses.add(new JsonObject().put("connectionId", targets.get(i).id())
                .put("reason", statuses.get(i).equals("ready") ? "value_not_in_sample" : statuses.get(i)));
          }
        }
        results.add(new JsonObject().put("value", value).put("matches", matches).put("misses", misses));
        text.append('"').append(value).append("\": ");
        if (matches.isEmpty()) {
          text.append("not in the sampled values (not proof of absence; check with sql_execution)");
        }
        for (int m = 0; m < matches.size(); m++) {
          JsonObject x = matches.getJsonObject(m);
          text.append(m == 0 ? "" : "; ").append(x.getString("connectionId")).append(':')
              .append(x.getString("sourceName")).append('.').append(x.getString("columnName"))
              .append(" = '").append(x.getString("matchedValue")).append('\'');
        }
        text.append('\n');
      }
      return ToolResult.of(new JsonObject().put("searched", searched).put("results", results), text.toString().trim());
    });
  }

  private static JsonObject coverage(Optional<CatalogSnapshot> s) {
    if (s.isEmpty()) {
      return new JsonObject().put("sampledRows", null).put("valuesPerColumn", null).put("profiledColumns", 0)
          .put("syncId", null).put("profiledAt", null);
    }
    CatalogSnapshot snap = s.get();
    return new JsonObject().put("sampledRows", snap.profile().sampledRows())
        .put("valuesPerColumn", snap.profile().valuesPerColumn())
        .put("profiledColumns", snap.profile().profiledColumns())
        .put("syncId", snap.syncId()).put("profiledAt", snap.profile().profiledAt());
  }

  /** Exact (case-insensitive) matches first, then substring matches, each in catalog order. */
  private static void match(CatalogSnapshot s, String needle, JsonArray into) {
    List<JsonObject> exact = new ArrayList<>();
    List<JsonObject> partial = new ArrayList<>();
    for (CatalogTable t : s.tables()) {
      for (CatalogColumn c : t.columns()) {
        for (String v : c.sampleValues()) {
          String folded = v.toLowerCase(Locale.ROOT);
          if (folded.contains(needle)) {
            JsonObject m = new JsonObject().put("connectionId", s.connectionId())
                .put("sourceName", t.ref().display()).put("columnName", c.name()).put("matchedValue", v)
                .put("cardinality", c.cardinality());
            (folded.equals(needle) ? exact : partial).add(m);
          }
        }
      }
    }
    exact.addAll(partial);
    exact.stream().limit(MAX_MATCHES).forEach(into::add);
  }
}
