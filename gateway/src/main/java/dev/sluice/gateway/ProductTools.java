package dev.sluice.gateway;

import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.tools.CatalogAccess;
import dev.sluice.tools.ConnectionDirectory;
import dev.sluice.tools.ConnectionListTool;
import dev.sluice.tools.DialectNotes;
import dev.sluice.tools.DiscoverDataTool;
import dev.sluice.tools.DiscoverySource;
import dev.sluice.tools.WikiReadTool;
import dev.sluice.tools.WikiSearchTool;
import dev.sluice.tools.DictionarySearchTool;
import dev.sluice.tools.EntityDetailsTool;
import dev.sluice.tools.MemoryIngestStatusTool;
import dev.sluice.tools.MemoryIngestTool;
import dev.sluice.tools.QueryCancelTool;
import dev.sluice.tools.SqlCompareTool;
import dev.sluice.tools.SqlDialectNotesTool;
import dev.sluice.tools.SqlExecutionTool;
import dev.sluice.tools.SqlExplainTool;

/** The tools the product serves, in the order tools/list shows them. */
final class ProductTools {

  private ProductTools() {}

  static void register(ToolRegistry tools, ConnectionDirectory connections, CatalogAccess catalog,
      DiscoverySource discovery) {
    tools.register(new ConnectionListTool(connections))
        .register(new DiscoverDataTool(connections, discovery))
        .register(new EntityDetailsTool(connections, catalog))
        .register(new DictionarySearchTool(connections, catalog))
        .register(new SqlDialectNotesTool(connections, DialectNotes.load()))
        .register(new SqlExecutionTool(connections))
        .register(new SqlExplainTool(connections))
        .register(new SqlCompareTool(connections))
        .register(new QueryCancelTool())
        .register(new WikiSearchTool(connections, discovery))
        .register(new WikiReadTool(discovery, connections))
        .register(new MemoryIngestTool(connections))
        .register(new MemoryIngestStatusTool());
  }
}
