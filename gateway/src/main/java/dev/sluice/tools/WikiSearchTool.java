package dev.sluice.tools;

import dev.sluice.discovery.DiscoveryIndex;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.wiki.WikiPage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * wiki_search: ranked wiki pages for a query: pages scoped to no connection, plus those scoped to
 * {@code connectionId} when given. Same ranking as discover_data, restricted to pages.
 */
public final class WikiSearchTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("wiki_search");

  private final ConnectionDirectory directory;
  private final DiscoverySource source;

  public WikiSearchTool(ConnectionDirectory directory, DiscoverySource source) {
    this.directory = directory;
    this.source = source;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    List<String> scope = directory.searchScope(args.getString("connectionId"), ctx.principal());
    return Future.all(source.current(), source.pages()).compose(both -> source.search(both.resultAt(0),
        args.getString("query"), scope, Set.of("wiki"), args.getInteger("limit", 10)).map(hits -> {
      List<WikiPage> all = both.resultAt(1);
      Map<String, WikiPage> byKey = all.stream().collect(Collectors.toMap(WikiPage::key, Function.identity()));
      JsonArray pages = new JsonArray();
      StringBuilder text = new StringBuilder();
      for (DiscoveryIndex.Hit h : hits) {
        WikiPage p = byKey.get(h.entry().id());
        if (p == null) {
          continue; // removed since the index was built
        }
        pages.add(WikiReadTool.header(p).put("score", Math.round(h.score() * 10_000) / 10_000.0).put("snippet", h.snippet())
            .put("matchedOn", h.matchedOn())
            .put("lanes", new JsonArray(h.lanes().stream().map(l -> l.wireName()).toList())));
        text.append(p.key()).append(": ").append(p.title());
        if (!p.summary().isEmpty()) {
          text.append(" - ").append(p.summary());
        }
        text.append('\n');
      }
      if (pages.isEmpty()) {
        text.append(all.isEmpty() ? "The wiki has no pages yet." : "No page matches; try other words.");
      }
      return ToolResult.of(new JsonObject().put("pages", pages), text.toString().trim());
    }));
  }
}
