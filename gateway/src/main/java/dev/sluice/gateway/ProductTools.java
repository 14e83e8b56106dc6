package dev.sluice.gateway;

import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.tools.ConnectionDirectory;
import dev.sluice.tools.ConnectionListTool;
import dev.sluice.tools.QueryCancelTool;
import dev.sluice.tools.SqlExecutionTool;
import dev.sluice.tools.SqlExplainTool;

/** The tools the product serves, in the order tools/list shows them. */
final class ProductTools {

  private ProductTools() {}

  static void register(ToolRegistry tools, ConnectionDirectory connections) {
    tools.register(new ConnectionListTool(connections))
        .register(new SqlExecutionTool(connections))
        .register(new SqlExplainTool(connections))
        .register(new QueryCancelTool());
  }
}
