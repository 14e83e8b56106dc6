package dev.sluice.semantic;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/**
 * One semantic-layer source: a table, how it joins to others, the dimensions one may group and
 * filter by, the measures one may aggregate, and named filters (segments).
 */
public record SemanticSource(
    String name,
    String table,
    String description,
    List<Join> joins,
    Map<String, Dimension> dimensions,
    Map<String, Measure> measures,
    Map<String, Segment> segments) {

  /** {@code cardinality} as seen from this source: many_to_one, one_to_many or one_to_one. */
  public record Join(String to, String local, String remote, String cardinality) {}

  public record Dimension(String name, String column, String expr, String type, List<String> granularities,
      String description) {}

  /** agg: count, count_distinct, sum, avg, min, max, or ratio (numerator / denominator measures). */
  public record Measure(String name, String agg, String column, String expr, String numerator, String denominator,
      String description, String format) {}

  public record Segment(String name, String filter, String description) {}

  public JsonObject toJson() {
    JsonArray dims = new JsonArray();
    dimensions.values().forEach(d -> dims.add(new JsonObject().put("name", name + "." + d.name()).put("type", d.type())
        .put("granularities", d.granularities() == null ? null : new JsonArray(d.granularities()))
        .put("description", d.description())));
    JsonArray ms = new JsonArray();
    measures.values().forEach(m -> ms.add(new JsonObject().put("name", name + "." + m.name()).put("agg", m.agg())
        .put("format", m.format()).put("description", m.description())));
    JsonArray segs = new JsonArray();
    segments.values().forEach(s -> segs.add(new JsonObject().put("name", name + "." + s.name())
        .put("filter", s.filter()).put("description", s.description())));
    JsonArray js = new JsonArray();
    joins.forEach(j -> js.add(new JsonObject().put("to", j.to()).put("on", name + "." + j.local() + " = " + j.to() + "."
        + j.remote()).put("cardinality", j.cardinality())));
    return new JsonObject().put("name", name).put("table", table).put("description", description)
        .put("dimensions", dims).put("measures", ms).put("segments", segs).put("joins", js);
  }
}
