package dev.sluice.semantic;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.LocalExecutors;
import dev.sluice.sql.SqlBus;
import dev.sluice.sql.SqlError;
import dev.sluice.sql.SqlRequest;
import dev.sluice.tools.ConnectionDirectory;
import dev.sluice.tools.ResultText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import dev.sluice.sql.Driver;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * sl_query: measures by dimensions from the semantic layer, compiled to the connection's dialect
 * and run through the same guard, policy, deadline, row cap, rate limits and audit as any SQL.
 */
public final class SlQueryTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("sl_query");

  private final ConnectionDirectory directory;
  private final SemanticLayers layers;
  /** "connectionId zone" pairs the MySQL/MariaDB server converted: asked once each. */
  private final Set<String> knownZones = ConcurrentHashMap.newKeySet();

  public SlQueryTool(ConnectionDirectory directory, SemanticLayers layers) {
    this.directory = directory;
    this.layers = layers;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  /** The named connection, or the only one the principal may use. */
  static ConnectionConfig connection(ConnectionDirectory directory, String id, String principal) {
    if (id != null) {
      return directory.require(id, principal);
    }
    List<ConnectionConfig> mine = directory.all(principal);
    if (mine.size() != 1) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "connectionId is required: you have " + mine.size()
          + " connections " + mine.stream().map(ConnectionConfig::id).toList());
    }
    return mine.get(0);
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = connection(directory, args.getString("connectionId"), ctx.principal());
    int limit = Math.min(args.getInteger("limit", c.maxRowsDefault()), c.maxRowsCeiling());
    ctx.progress(0, null, "compiling");
    String schema = c.schemas().isEmpty() || c.driver() != Driver.POSTGRES ? null : c.schemas().get(0);
    // compiled against what the caller may see, so unknown-field suggestions name only visible fields
    return layers.of(c.id(), ctx.principal(), directory.policy())
        .map(layer -> {
          if (layer.sources().isEmpty()) {
            throw new SqlError(ErrorType.NOT_FOUND, "connection '" + c.id() + "' has no semantic layer"
                + (layer.problems().isEmpty() ? "" : " (every source is disabled: " + layer.problems() + ")")
                + "; an operator adds source YAML files under semantic/" + c.id() + "/ in the state directory, or"
                + " an agent ingests one with memory_ingest (docs/semantic.md). Meanwhile sql_execution answers"
                + " the question in SQL.").with("problems", new JsonArray(layer.problems()));
          }
          return layer;
        })
        // off the event loop: filter expressions go through a SQL parser
        .compose(layer -> ctx.vertx().executeBlocking(() -> new SlCompiler(layer, Dialect.of(c.driver()), schema)
            .compile(args, limit), false))
        .compose(q -> zoneKnown(c, q.zone(), ctx).map(v -> q))
        .compose(q -> {
          ctx.progress(1, null, "generating SQL");
          SqlRequest request = SqlRequest.query(c.id(), q.sql(), null, limit)
              .withParams(q.params().isEmpty() ? null : q.params());
          ctx.progress(2, null, "executing");
          return directory.gate().run(c, request, List.of(), ctx, p -> { }).map(r -> {
            ctx.progress(3, null, "fetched " + r.getInteger("rowCount", 0) + " rows");
            r.put("connectionId", c.id()).put("sql", q.sql()).put("parameters", q.params()).put("fields", q.fields())
                .put("timezone", q.zone().name());
            if (!q.ranges().isEmpty()) {
              r.put("ranges", q.ranges());
            }
            return ToolResult.of(r, ResultText.render(r) + "\n\nSQL: " + q.sql());
          });
        });
  }

  /**
   * A named zone on MySQL/MariaDB needs the server's time-zone tables; without them CONVERT_TZ
   * answers NULL and every row would group under NULL, so ask the server once per zone first.
   */
  private Future<Void> zoneKnown(ConnectionConfig c, SlTimeZone zone, ToolContext ctx) {
    if (!zone.named() || c.driver() != Driver.MYSQL || knownZones.contains(c.id() + " " + zone.name())) {
      return Future.succeededFuture();
    }
    SqlRequest probe = SqlRequest.query(c.id(), "SELECT CONVERT_TZ('2000-01-01 00:00:00', '+00:00', #{zone})"
        + " AS converted", null, 1).withParams(new JsonObject().put("zone", zone.name()))
        .withRouting(c.id(), UUID.randomUUID().toString(), null);
    return LocalExecutors.execute(ctx.vertx(), c.driver(), probe, c.queryTimeoutMs() + SqlBus.REPLY_GRACE_MS)
        .compose(body -> {
          if (body.getJsonArray("rows").getJsonArray(0).getValue(0) == null) {
            return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "timezone '" + zone.name()
                + "': the server of connection '" + c.id() + "' has no time-zone tables loaded (mysql_tzinfo_to_sql),"
                + " so it cannot convert to named zones; give a fixed offset such as +01:00, or ask the operator"
                + " to load them").with("rule", "timezone"));
          }
          knownZones.add(c.id() + " " + zone.name());
          return Future.<Void>succeededFuture();
        });
  }
}
