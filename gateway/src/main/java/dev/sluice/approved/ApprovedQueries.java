package dev.sluice.approved;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.sql.TemplateSql;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads approved query definitions from {@code <dir>/*.sql}: a leading block comment holding a
 * YAML header, then the SQL. Every definition is checked whole (its connection exists, every
 * placeholder is declared and every declared parameter used, types are JSON Schema types); one bad
 * file makes the whole load fail with its name and reason, so a reload never half-applies.
 *
 * <pre>
 * /*
 * name: Orders by status
 * description: Orders per status since a date
 * connection: shop
 * parameters:
 *   since: {type: string, description: "ISO date", default: "2025-01-01"}
 * limit: {default: 100, max: 1000}
 * show_sql: true
 * as_tool: true
 * *&#47;
 * SELECT status, count(*) AS n FROM orders WHERE ordered_at >= #{since} GROUP BY status
 * </pre>
 */
public final class ApprovedQueries {

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> HEADER = Set.of("id", "name", "description", "connection", "parameters", "limit",
      "show_sql", "as_tool", "grants_tables");
  private static final Set<String> PARAM = Set.of("type", "description", "default", "enum", "minimum", "maximum",
      "minLength", "maxLength", "pattern", "format", "secret");
  private static final Set<String> TYPES = Set.of("string", "integer", "number", "boolean");

  private ApprovedQueries() {}

  /** Definitions by id from {@code *.sql} files (name → text); other names are ignored. */
  public static Map<String, ApprovedQuery> load(Map<String, String> files, Set<String> connectionIds) {
    Map<String, ApprovedQuery> out = new LinkedHashMap<>();
    for (Map.Entry<String, String> f : new java.util.TreeMap<>(files).entrySet()) {
      if (!f.getKey().endsWith(".sql")) {
        continue;
      }
      ApprovedQuery q = parse(f.getKey(), f.getValue(), connectionIds);
      if (out.putIfAbsent(q.id(), q) != null) {
        throw new IllegalArgumentException(f.getKey() + ": id '" + q.id() + "' is defined twice");
      }
    }
    return out;
  }

  static ApprovedQuery parse(String file, String fileText, Set<String> connectionIds) {
    String text = fileText.strip();
    if (!text.startsWith("/*") || text.indexOf("*/") < 0) {
      throw new IllegalArgumentException(file + ": must start with a /* ... */ YAML header");
    }
    int end = text.indexOf("*/");
    String sql = TemplateSql.trimmed(text.substring(end + 2));
    JsonNode h;
    try {
      h = YAML.readTree(text.substring(2, end));
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": the header is not valid YAML: " + e.getMessage().split("\n")[0]);
    }
    if (h == null || !h.isObject()) {
      throw new IllegalArgumentException(file + ": the header must be a YAML mapping");
    }
    h.fieldNames().forEachRemaining(k -> {
      if (!HEADER.contains(k)) {
        throw new IllegalArgumentException(file + ": unknown header key '" + k + "' (known: " + HEADER + ")");
      }
    });
    String id = h.has("id") ? h.get("id").asText() : file.substring(0, file.length() - 4);
    if (!id.matches("[a-z][a-z0-9_]{0,63}")) {
      throw new IllegalArgumentException(file + ": id '" + id + "' must be 1-64 lower-case letters, digits or '_'");
    }
    String connection = h.path("connection").asText(null);
    if (connection == null || !connectionIds.contains(connection)) {
      throw new IllegalArgumentException(file + ": connection '" + connection + "' is not configured "
          + connectionIds);
    }
    if (sql.isEmpty()) {
      throw new IllegalArgumentException(file + ": no SQL after the header");
    }
    JsonObject params = h.has("parameters") ? new JsonObject(h.get("parameters").toString()) : new JsonObject();
    for (String name : params.fieldNames()) {
      Object spec = params.getValue(name);
      if (!(spec instanceof JsonObject p) || !TYPES.contains(p.getString("type"))) {
        throw new IllegalArgumentException(file + ": parameter '" + name + "' needs a type: one of " + TYPES);
      }
      for (String k : p.fieldNames()) {
        if (!PARAM.contains(k)) {
          throw new IllegalArgumentException(file + ": parameter '" + name + "' has unknown key '" + k + "'");
        }
      }
      if (h.path("as_tool").asBoolean(false) && p.getString("description", "").isBlank()) {
        // its own tool's inputSchema is all an agent reads about the parameter
        throw new IllegalArgumentException(file + ": parameter '" + name + "' needs a description (as_tool: true "
            + "publishes it as a tool argument)");
      }
    }
    Set<String> used = TemplateSql.names(sql);
    for (String u : used) {
      if (!params.containsKey(u)) {
        throw new IllegalArgumentException(file + ": #{" + u + "} is used but not declared under parameters");
      }
    }
    for (String d : params.fieldNames()) {
      if (!used.contains(d)) {
        throw new IllegalArgumentException(file + ": parameter '" + d + "' is declared but the SQL never uses #{"
            + d + "}");
      }
    }
    int limitMax = h.path("limit").path("max").asInt(1_000);
    int limitDefault = h.path("limit").path("default").asInt(Math.min(100, limitMax));
    if (limitDefault < 1 || limitMax < limitDefault) {
      throw new IllegalArgumentException(file + ": limit needs 1 <= default <= max");
    }
    List<String> grants = new ArrayList<>();
    h.path("grants_tables").forEach(n -> grants.add(n.asText()));
    return new ApprovedQuery(id, h.path("name").asText(id), h.path("description").asText(""), connection, sql,
        params, limitDefault, limitMax, h.path("show_sql").asBoolean(false), h.path("as_tool").asBoolean(false),
        grants, file);
  }
}
