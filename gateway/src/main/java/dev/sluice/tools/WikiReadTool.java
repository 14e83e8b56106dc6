package dev.sluice.tools;

import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import dev.sluice.wiki.WikiKeys;
import dev.sluice.wiki.WikiPage;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** wiki_read: one wiki page, whole: frontmatter fields and markdown body. */
public final class WikiReadTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("wiki_read");

  private final DiscoverySource source;

  /** What wiki_read and wiki_search both say of a page. */
  static JsonObject header(WikiPage p) {
    return new JsonObject().put("key", p.key()).put("title", p.title())
        .put("summary", p.summary().isEmpty() ? null : p.summary())
        .put("tags", new JsonArray(p.tags())).put("connections", new JsonArray(p.connections()));
  }

  private final ConnectionDirectory directory;

  public WikiReadTool(DiscoverySource source, ConnectionDirectory directory) {
    this.source = source;
    this.directory = directory;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    String key = args.getString("key");
    if (!WikiKeys.valid(key)) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "'" + key + "' is not a page key: keys are 1-128 letters, "
          + "digits, '-', '_' and inner '.', with no path separators");
    }
    // the page itself is one read; listing every page is only needed for a miss's suggestions
    return source.page(key).compose(found -> {
      WikiPage page = found.filter(x -> directory.pageVisible(x.connections(), ctx.principal())).orElse(null);
      return page != null ? Future.succeededFuture(page) : source.pages().map(pages -> {
        List<String> visible = pages.stream().filter(x -> directory.pageVisible(x.connections(), ctx.principal()))
            .map(WikiPage::key).toList();
        List<String> similar = NameSuggester.similar(key, visible);
        throw new SqlError(ErrorType.NOT_FOUND, "no wiki page '" + key + "'"
            + (similar.isEmpty() ? "" : "; did you mean " + String.join(", ", similar) + "?"))
            .with("suggestions", new JsonArray(similar))
            .with("hint", "Find pages with wiki_search or discover_data.");
      });
    }).map(p -> {
      JsonObject out = header(p)
          .put("tables", new JsonArray(p.tableRefs())).put("slRefs", new JsonArray(p.slRefs()))
          .put("body", p.body()).put("updatedAt", p.updatedAt().toString());
      return ToolResult.of(out, "# " + p.title() + "\n\n" + p.body());
    });
  }
}
