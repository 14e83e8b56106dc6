package dev.sluice.semantic;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;

/** sl_read_source: one semantic-layer source, its fields and the sources it joins to. */
public final class SlReadSourceTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sl_read_source");

  private final ConnectionDirectory directory;
  private final SemanticLayers layers;

  public SlReadSourceTool(ConnectionDirectory directory, SemanticLayers layers) {
    this.directory = directory;
    this.layers = layers;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = SlQueryTool.connection(directory, args.getString("connectionId"), ctx.principal());
    String name = args.getString("source");
    // a governed caller reads the layer without what its table policy hides (sources, fields, joins)
    return layers.of(c.id(), ctx.principal(), directory.policy()).map(layer -> {
      SemanticSource s = layer.sources().get(name);
      if (s == null) {
        List<String> near = NameSuggester.similar(name, layer.sources().keySet());
        throw new SqlError(ErrorType.NOT_FOUND, "no semantic source '" + name + "' on '" + c.id() + "'; sources: "
            + layer.sources().keySet()).with("suggestions", new JsonArray(near))
            .with("problems", new JsonArray(layer.problems()));
      }
      JsonObject out = s.toJson().put("connectionId", c.id());
      return ToolResult.of(out, out.encodePrettily());
    });
  }
}
