package dev.sluice.tools;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogForeignKey;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolContext;
import dev.sluice.mcp.tool.ToolResult;
import dev.sluice.mcp.tool.ToolSpec;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * entity_details: columns, keys, foreign keys and comments of up to 20 tables, from the latest
 * catalog snapshot. Tables that do not resolve are reported beside the ones that do; the call is
 * an error only when none resolves.
 */
public final class EntityDetailsTool implements Tool {

  private static final ToolSpec SPEC = ToolSpec.resource("entity_details");

  private final ConnectionDirectory directory;
  private final CatalogAccess catalog;

  public EntityDetailsTool(ConnectionDirectory directory, CatalogAccess catalog) {
    this.directory = directory;
    this.catalog = catalog;
  }

  @Override
  public ToolSpec spec() {
    return SPEC;
  }

  @Override
  public Future<ToolResult> call(JsonObject args, ToolContext ctx) {
    ConnectionConfig c = directory.require(args.getString("connectionId"), ctx.principal());
    JsonArray entities = args.getJsonArray("entities");
    return catalog.require(c)
        .compose(all -> directory.policy().prime(ctx.principal(), List.of(all))
            .map(v -> directory.policy().visible(ctx.principal(), all)))
        .map(snapshot -> describe(snapshot, entities));
  }

  /** One record per requested entity; fails only when none resolved. */
  private ToolResult describe(CatalogSnapshot snapshot, JsonArray entities) {
    JsonArray out = new JsonArray();
    JsonArray errors = new JsonArray();
    StringBuilder text = new StringBuilder();
    SqlError first = null;
    for (int i = 0; i < entities.size(); i++) {
      JsonObject e = entities.getJsonObject(i);
      Object table = tableArgument(e);
      try {
        CatalogTable t = TableResolver.resolve(snapshot, table);
        JsonObject record = record(snapshot, t, e.getJsonArray("columns"), errors, table);
        out.add(record);
        render(text, t, record);
      } catch (SqlError err) {
        first = first == null ? err : first;
        errors.add(new JsonObject().put("table", table).put("error_type", err.type().wireName())
            .put("message", err.getMessage()).mergeIn(err.details()));
        text.append("! ").append(err.getMessage()).append("\n\n");
      }
    }
    if (out.isEmpty()) {
      throw entities.size() == 1 ? first
          : new SqlError(first.type(), "none of the " + entities.size() + " tables resolved; first: "
              + first.getMessage()).with("errors", errors);
    }
    JsonObject structured = new JsonObject().put("entities", out).put("errors", errors);
    return ToolResult.of(structured, text.toString().trim());
  }

  /** {table: "x", schema: "s"} and {table: {schema, table}} are aliases of {db: s, name: x}. */
  private static Object tableArgument(JsonObject entity) {
    Object table = entity.getValue("table");
    if (table instanceof JsonObject o) {
      if (o.getString("name") == null && o.getString("table") != null) {
        return new JsonObject().put("catalog", o.getString("catalog"))
            .put("db", o.getString("db", o.getString("schema"))).put("name", o.getString("table"));
      }
      return o;
    }
    String schema = entity.getString("schema");
    return schema == null || schema.isBlank() ? table
        : new JsonObject().put("catalog", null).put("db", schema).put("name", String.valueOf(table));
  }

  private static JsonObject record(CatalogSnapshot s, CatalogTable t, JsonArray only, JsonArray errors,
      Object asked) {
    List<CatalogColumn> columns = new ArrayList<>(t.columns());
    if (only != null && !only.isEmpty()) {
      List<CatalogColumn> picked = new ArrayList<>();
      for (Object name : only) {
        String n = String.valueOf(name);
        CatalogColumn c = t.columns().stream().filter(x -> x.name().equals(n)).findFirst()
            .or(() -> t.columns().stream().filter(x -> x.name().toLowerCase(Locale.ROOT)
                .equals(n.toLowerCase(Locale.ROOT))).findFirst())
            .orElse(null);
        if (c == null) {
          List<String> similar = NameSuggester.similar(n, t.columns().stream().map(CatalogColumn::name).toList());
          errors.add(new JsonObject().put("table", asked).put("column", n)
              .put("error_type", ErrorType.COLUMN_NOT_FOUND.wireName())
              .put("message", "no column '" + n + "' in " + t.ref().display())
              .put("suggestions", new JsonArray(similar)));
        } else {
          picked.add(c);
        }
      }
      columns = picked;
    }
    JsonArray cols = new JsonArray();
    for (CatalogColumn c : columns) {
      cols.add(new JsonObject().put("name", c.name()).put("nativeType", c.nativeType())
          .put("normalizedType", c.normalizedType()).put("dimensionType", c.dimensionType())
          .put("nullable", c.nullable()).put("primaryKey", c.primaryKey()).put("comment", c.comment()));
    }
    JsonArray fks = new JsonArray();
    for (CatalogForeignKey f : t.foreignKeys()) {
      fks.add(new JsonObject().put("fromColumn", f.fromColumn()).put("toCatalog", f.toCatalog())
          .put("toDb", f.toDb()).put("toTable", f.toTable()).put("toColumn", f.toColumn())
          .put("constraintName", f.constraintName()));
    }
    return new JsonObject()
        .put("connectionId", s.connectionId())
        .put("tableRef", TableResolver.refJson(t.ref()))
        .put("display", t.ref().display())
        .put("kind", t.kind())
        .put("comment", t.comment())
        .put("estimatedRows", t.estimatedRows())
        .put("columns", cols)
        .put("foreignKeys", fks)
        .put("snapshot", new JsonObject().put("syncId", s.syncId()).put("extractedAt", s.extractedAt())
            .put("scanRunId", s.syncId()));
  }

  private static void render(StringBuilder text, CatalogTable t, JsonObject record) {
    text.append(t.ref().display()).append(" (").append(t.kind());
    if (t.estimatedRows() != null) {
      text.append(", ~").append(t.estimatedRows()).append(" rows");
    }
    text.append(')');
    if (t.comment() != null) {
      text.append(": ").append(t.comment());
    }
    text.append('\n');
    for (Object o : record.getJsonArray("columns")) {
      JsonObject c = (JsonObject) o;
      text.append("  ").append(c.getString("name")).append(' ').append(c.getString("nativeType"));
      if (c.getBoolean("primaryKey")) {
        text.append(" PK");
      }
      if (!c.getBoolean("nullable")) {
        text.append(" NOT NULL");
      }
      if (c.getString("comment") != null) {
        text.append("  -- ").append(c.getString("comment"));
      }
      text.append('\n');
    }
    for (CatalogForeignKey f : t.foreignKeys()) {
      text.append("  FK ").append(f.fromColumn()).append(" -> ")
          .append(f.toDb() == null ? "" : f.toDb() + ".").append(f.toTable()).append('.').append(f.toColumn())
          .append('\n');
    }
    text.append("(snapshot ").append(record.getJsonObject("snapshot").getString("extractedAt")).append(")\n\n");
  }
}
