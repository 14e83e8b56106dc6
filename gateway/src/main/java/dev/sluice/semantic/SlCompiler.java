package dev.sluice.semantic;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Compiles an sl_query into one SQL statement for a dialect. Measures are grouped by their
 * source; each group is aggregated on its own (joined only along the paths its dimensions and
 * filters need) and the groups are joined on the dimensions, so a measure is never summed across a
 * one-to-many join: a group whose path fans out is refused with an explanation unless its
 * measures are immune (count_distinct, min, max). Filter values become {@code #{fN}} parameters,
 * bound by the driver.
 */
public final class SlCompiler {

  static final Set<String> FANOUT_SAFE = Set.of("count_distinct", "min", "max");

  private final SemanticLayer layer;
  private final Dialect dialect;
  private final String schema;
  /** The zone of the call being compiled: time dimensions are grouped and filtered in it. */
  private SlTimeZone zone = SlTimeZone.UTC;
  /** Where relative time ranges ("last 30 days") are counted from: the call's as_of, else now. */
  private java.time.LocalDateTime now;
  /** The relative ranges of the call being compiled, as resolved (reported with the answer). */
  private JsonArray ranges = new JsonArray();
  private final java.time.Clock clock;

  /** @param schema prefix for table names (PostgreSQL scan schema), or null */
  public SlCompiler(SemanticLayer layer, Dialect dialect, String schema) {
    this(layer, dialect, schema, java.time.Clock.systemUTC());
  }

  /** @param clock "now" for relative time ranges when the query gives no as_of */
  SlCompiler(SemanticLayer layer, Dialect dialect, String schema, java.time.Clock clock) {
    this.clock = clock;
    this.layer = layer;
    this.dialect = dialect;
    this.schema = schema;
  }

  /** The compiled statement, its parameters and the metadata of each output field. */
  /** @param ranges each relative time range as resolved: {field, range, from, to} (to excluded) */
  public record Compiled(String sql, JsonObject params, JsonArray fields, SlTimeZone zone, JsonArray ranges) {}

  private record Dim(String source, SemanticSource.Dimension dim, String grain, String label) {}

  private record Meas(String source, SemanticSource.Measure measure, String label) {}

  public Compiled compile(JsonObject q, int limit) {
    zone = SlTimeZone.parse(q.getString("timezone"), dialect);
    now = q.getString("as_of") == null ? zone.now(clock) : zone.at(q.getString("as_of"));
    ranges = new JsonArray();
    List<Meas> measures = new ArrayList<>();
    for (Object m : q.getJsonArray("measures", new JsonArray())) {
      String name = m instanceof JsonObject o ? o.getString("name", o.getString("id")) : String.valueOf(m);
      String[] f = field(name);
      SemanticSource.Measure meas = layer.sources().get(f[0]).measures().get(f[1]);
      if (meas == null) {
        throw unknown(name, "measure");
      }
      measures.add(new Meas(f[0], meas, name));
    }
    List<Dim> dims = new ArrayList<>();
    for (Object d : q.getJsonArray("dimensions", new JsonArray())) {
      String name;
      String grain = null;
      if (d instanceof JsonObject o) {
        name = o.getString("dimension", o.getString("field", o.getString("name")));
        grain = o.getString("granularity");
      } else {
        name = String.valueOf(d);
      }
      String[] f = field(name);
      SemanticSource.Dimension dim = layer.sources().get(f[0]).dimensions().get(f[1]);
      if (dim == null) {
        throw unknown(name, "dimension");
      }
      if (grain != null && (dim.granularities() == null || !dim.granularities().contains(grain))) {
        throw new SqlError(ErrorType.INVALID_ARGUMENT, "dimension " + name + " has no granularity '" + grain + "'"
            + (dim.granularities() == null ? " (it is not a time dimension)" : "; allowed: " + dim.granularities()));
      }
      if (grain == null && dim.granularities() != null) {
        grain = "day";
      }
      dims.add(new Dim(f[0], dim, grain, grain == null ? name : name + "." + grain));
    }
    if (measures.isEmpty() && dims.isEmpty()) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "ask for at least one measure or dimension");
    }
    // each top-level AND part of each filter goes to the one source whose fields it reads
    List<FilterExpression> conjuncts = new ArrayList<>();
    for (Object o : q.getJsonArray("filters", new JsonArray())) {
      conjuncts.addAll(FilterExpression.of(o).conjuncts());
    }
    Map<String, List<String>> segments = new LinkedHashMap<>();
    for (Object s : q.getJsonArray("segments", new JsonArray())) {
      String[] f = field(String.valueOf(s));
      SemanticSource.Segment seg = layer.sources().get(f[0]).segments().get(f[1]);
      if (seg == null) {
        throw unknown(String.valueOf(s), "segment");
      }
      segments.computeIfAbsent(f[0], k -> new ArrayList<>()).add(seg.filter());
    }

    JsonObject params = new JsonObject();
    Map<String, List<String>> where = new HashMap<>();
    segments.forEach((src, fs) -> fs.forEach(f -> where.computeIfAbsent(src, k -> new ArrayList<>()).add("(" + f + ")")));
    for (int i = 0; i < conjuncts.size(); i++) {
      FilterExpression f = conjuncts.get(i);
      Set<String> sources = new LinkedHashSet<>();
      f.fields().forEach(name -> sources.add(field(name)[0]));
      if (sources.size() > 1) {
        throw new SqlError(ErrorType.INVALID_ARGUMENT, "a filter condition joined by OR or NOT reads " + sources
            + ": each such condition must stay within one source (it filters that source's rows); split it, or "
            + "combine the conditions with AND").with("rule", "filter_expression");
      }
      where.computeIfAbsent(sources.iterator().next(), k -> new ArrayList<>())
          .add(render(f, "f" + i, new int[1], params));
    }

    // group measures by source; a dimension-only query reads the first dimension's source
    Map<String, List<Meas>> groups = new LinkedHashMap<>();
    measures.forEach(m -> groups.computeIfAbsent(m.source(), k -> new ArrayList<>()).add(m));
    if (groups.isEmpty()) {
      groups.put(dims.get(0).source(), new ArrayList<>());
    }
    List<String> parts = new ArrayList<>();
    int g = 0;
    for (Map.Entry<String, List<Meas>> e : groups.entrySet()) {
      parts.add(groupSql(e.getKey(), e.getValue(), dims, where));
      g++;
    }
    JsonArray fields = new JsonArray();
    dims.forEach(d -> fields.add(new JsonObject().put("name", d.label()).put("kind", "dimension")
        .put("type", d.dim().type()).put("granularity", d.grain())
        .put("timezone", d.grain() == null ? null : zone.name())));
    measures.forEach(m -> fields.add(new JsonObject().put("name", m.label()).put("kind", "measure")
        .put("agg", m.measure().agg()).put("format", m.measure().format())));

    String body;
    if (parts.size() == 1) {
      body = parts.get(0);
    } else {
      StringBuilder b = new StringBuilder("WITH ");
      for (int i = 0; i < parts.size(); i++) {
        b.append(i == 0 ? "" : ", ").append("q").append(i).append(" AS (").append(parts.get(i)).append(")");
      }
      b.append(" SELECT ");
      List<String> cols = new ArrayList<>();
      dims.forEach(d -> cols.add("q0." + quote(d.label())));
      measures.forEach(m -> cols.add("q" + indexOf(groups, m.source()) + "." + quote(m.label())));
      b.append(String.join(", ", cols)).append(" FROM q0");
      for (int i = 1; i < parts.size(); i++) {
        b.append(dims.isEmpty() ? " CROSS JOIN q" + i : " LEFT JOIN q" + i + " ON ");
        List<String> on = new ArrayList<>();
        for (Dim d : dims) {
          on.add(nullSafeEquals("q0." + quote(d.label()), "q" + i + "." + quote(d.label())));
        }
        if (!dims.isEmpty()) {
          b.append(String.join(" AND ", on));
        }
      }
      body = b.toString();
    }
    String order = orderBy(q, dims, measures);
    return new Compiled(body + order + " LIMIT " + limit, params, fields, zone, ranges);
  }

  private static int indexOf(Map<String, List<Meas>> groups, String source) {
    int i = 0;
    for (String s : groups.keySet()) {
      if (s.equals(source)) {
        return i;
      }
      i++;
    }
    return 0;
  }

  /** One measure source: its table joined along the paths its dimensions and filters need. */
  private String groupSql(String base, List<Meas> ms, List<Dim> dims, Map<String, List<String>> where) {
    Set<String> needed = new LinkedHashSet<>();
    dims.forEach(d -> needed.add(d.source()));
    needed.addAll(where.keySet());
    needed.remove(base);
    Map<String, String> alias = new LinkedHashMap<>();
    alias.put(base, "t0");
    StringBuilder from = new StringBuilder(relation(base, where)).append(" t0");
    boolean safe = ms.stream().allMatch(m -> FANOUT_SAFE.contains(m.measure().agg()));
    for (String target : needed) {
      List<Step> path = path(base, target);
      for (Step step : path) {
        if (step.join().cardinality().equals("one_to_many") && !safe && !ms.isEmpty()) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "cannot break " + labels(ms) + " down by " + target
              + ": " + step.from() + " -> " + step.join().to() + " is one-to-many, so each " + step.from()
              + " row would be counted once per " + step.join().to() + " row (fan-out). Use a measure of "
              + step.join().to() + " or of " + target + ", or drop that dimension/filter.")
              .with("rule", "fan_out");
        }
        if (!alias.containsKey(step.join().to())) {
          String a = "t" + alias.size();
          alias.put(step.join().to(), a);
          boolean inner = where.containsKey(step.join().to()) || filteredBeyond(step.join().to(), where, base);
          from.append(inner ? " JOIN " : " LEFT JOIN ").append(relation(step.join().to(), where)).append(' ').append(a)
              .append(" ON ").append(alias.get(step.from())).append('.').append(quote(step.join().local())).append(" = ")
              .append(a).append('.').append(quote(step.join().remote()));
        }
      }
    }
    List<String> select = new ArrayList<>();
    for (Dim d : dims) {
      select.add(dimExpr(alias.get(d.source()), d) + " AS " + quote(d.label()));
    }
    for (Meas m : ms) {
      select.add(measureExpr("t0", layer.sources().get(base), m.measure()) + " AS " + quote(m.label()));
    }
    StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ", select)).append(" FROM ").append(from);
    if (!dims.isEmpty()) {
      List<String> groupBy = new ArrayList<>();
      for (int i = 1; i <= dims.size(); i++) {
        groupBy.add(String.valueOf(i));
      }
      sql.append(" GROUP BY ").append(String.join(", ", groupBy));
    }
    return sql.toString();
  }

  private boolean filteredBeyond(String source, Map<String, List<String>> where, String base) {
    for (String filtered : where.keySet()) {
      if (filtered.equals(base)) {
        continue;
      }
      for (Step s : path(base, filtered)) {
        if (s.from().equals(source)) {
          return true;
        }
      }
    }
    return false;
  }

  private String relation(String source, Map<String, List<String>> where) {
    String table = table(layer.sources().get(source).table());
    List<String> w = where.get(source);
    return w == null ? table : "(SELECT * FROM " + table + " WHERE " + String.join(" AND ", w) + ")";
  }

  private String table(String name) {
    return schema == null ? quote(name) : quote(schema) + "." + quote(name);
  }

  private record Step(String from, SemanticSource.Join join) {}

  /** Shortest join path between two sources (joins usable in both directions). */
  private List<Step> path(String from, String to) {
    Map<String, Step> via = new HashMap<>();
    ArrayDeque<String> queue = new ArrayDeque<>(List.of(from));
    Set<String> seen = new LinkedHashSet<>(List.of(from));
    while (!queue.isEmpty()) {
      String cur = queue.poll();
      if (cur.equals(to)) {
        break;
      }
      for (SemanticSource.Join j : edges(cur)) {
        if (layer.sources().containsKey(j.to()) && seen.add(j.to())) {
          via.put(j.to(), new Step(cur, j));
          queue.add(j.to());
        }
      }
    }
    if (!via.containsKey(to)) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "no join path from " + from + " to " + to
          + "; declare a join between them in the semantic layer").with("rule", "no_join_path");
    }
    List<Step> out = new ArrayList<>();
    for (String s = to; !s.equals(from); s = via.get(s).from()) {
      out.add(0, via.get(s));
    }
    return out;
  }

  /** A source's own joins plus the reverse of joins other sources declare to it. */
  private List<SemanticSource.Join> edges(String source) {
    List<SemanticSource.Join> out = new ArrayList<>(layer.sources().get(source).joins());
    for (SemanticSource other : layer.sources().values()) {
      for (SemanticSource.Join j : other.joins()) {
        if (j.to().equals(source) && out.stream().noneMatch(e -> e.to().equals(other.name()))) {
          String reverse = switch (j.cardinality()) {
            case "many_to_one" -> "one_to_many";
            case "one_to_many" -> "many_to_one";
            default -> "one_to_one";
          };
          out.add(new SemanticSource.Join(other.name(), j.remote(), j.local(), reverse));
        }
      }
    }
    return out;
  }

  private String dimExpr(String alias, Dim d) {
    String col = d.dim().expr() != null ? d.dim().expr() : alias + "." + quote(d.dim().column());
    if (d.grain() == null) {
      return col;
    }
    col = zone.local(dialect, col);
    return switch (dialect) {
      case POSTGRES -> "CAST(date_trunc('" + d.grain() + "', " + col + ") AS date)";
      case MYSQL -> switch (d.grain()) {
        case "month" -> "CAST(DATE_FORMAT(" + col + ", '%Y-%m-01') AS DATE)";
        case "year" -> "CAST(DATE_FORMAT(" + col + ", '%Y-01-01') AS DATE)";
        default -> "DATE(" + col + ")";
      };
      case SQLITE -> switch (d.grain()) {
        case "month" -> "strftime('%Y-%m-01', " + col + ")";
        case "year" -> "strftime('%Y-01-01', " + col + ")";
        default -> "date(" + col + ")";
      };
    };
  }

  private String measureExpr(String alias, SemanticSource src, SemanticSource.Measure m) {
    String col = m.expr() != null ? m.expr() : m.column() == null ? null : alias + "." + quote(m.column());
    return switch (m.agg()) {
      case "count" -> col == null ? "COUNT(*)" : "COUNT(" + col + ")";
      case "count_distinct" -> "COUNT(DISTINCT " + col + ")";
      case "ratio" -> "(" + measureExpr(alias, src, src.measures().get(m.numerator())) + ") * 1.0 / NULLIF("
          + measureExpr(alias, src, src.measures().get(m.denominator())) + ", 0)";
      default -> m.agg().toUpperCase(Locale.ROOT) + "(" + col + ")";
    };
  }

  /** SQL for one filter condition, its values bound as {@code #{<prefix>_<n>}} parameters. */
  private String render(FilterExpression f, String prefix, int[] seq, JsonObject params) {
    if (f instanceof FilterExpression.All a) {
      return "(" + String.join(" AND ", a.parts().stream().map(p -> render(p, prefix, seq, params)).toList()) + ")";
    }
    if (f instanceof FilterExpression.Any a) {
      return "(" + String.join(" OR ", a.parts().stream().map(p -> render(p, prefix, seq, params)).toList()) + ")";
    }
    if (f instanceof FilterExpression.Not n) {
      return "NOT " + render(n.inner(), prefix, seq, params);
    }
    FilterExpression.Condition c = (FilterExpression.Condition) f;
    String[] fd = field(c.field());
    SemanticSource.Dimension dim = layer.sources().get(fd[0]).dimensions().get(fd[1]);
    if (dim == null) {
      throw unknown(c.field(), "dimension (filters apply to dimensions)");
    }
    return "(" + predicate(dim, c, prefix + "_" + seq[0]++, params) + ")";
  }

  private String predicate(SemanticSource.Dimension dim, FilterExpression.Condition f, String param,
      JsonObject params) {
    String col = dim.expr() != null ? dim.expr() : quote(dim.column());
    boolean time = "time".equals(dim.type());
    // a time is compared as the wall-clock time of the call's zone, like its grouping
    String lhs = !time ? col : dialect == Dialect.SQLITE && zone.utc() ? "datetime(" + col + ")"
        : zone.local(dialect, col);
    switch (f.op()) {
      case "is_null":
        return col + " IS NULL";
      case "is_not_null":
        return col + " IS NOT NULL";
      case "in":
      case "not_in": {
        if (!(f.value() instanceof JsonArray values) || values.isEmpty()) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "filter " + f.op() + " needs a non-empty array value");
        }
        List<String> ps = new ArrayList<>();
        for (int i = 0; i < values.size(); i++) {
          ps.add(bind(param + "_" + i, values.getValue(i), time, params));
        }
        return lhs + (f.op().equals("in") ? " IN (" : " NOT IN (") + String.join(", ", ps) + ")";
      }
      case "during": {
        if (!time) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "filter during takes a time dimension; " + dim.name()
              + " is " + dim.type()).with("rule", "relative_range");
        }
        if (!(f.value() instanceof String phrase)) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "filter during needs a range in words, e.g. 'last 30 days'")
              .with("rule", "relative_range");
        }
        RelativeRange r = RelativeRange.parse(phrase, now);
        ranges.add(new JsonObject().put("field", f.field()).put("range", phrase).put("from", r.fromText())
            .put("to", r.toText()).put("timezone", zone.name()));
        // half-open, so a range ends where the next begins: [from, to)
        return lhs + " >= " + bind(param + "_from", r.fromText(), true, params) + " AND " + lhs + " < "
            + bind(param + "_to", r.toText(), true, params);
      }
      case "contains":
        // the value is matched as it is: its own % and _ are escaped, not wildcards
        params.put(param, "%" + String.valueOf(f.value()).replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
        return col + " LIKE #{" + param + "} ESCAPE '!'";
      case "like":
      case "not_like":
        if (!(f.value() instanceof String)) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "filter " + f.op() + " on " + dim.name()
              + " needs a text pattern");
        }
        params.put(param, f.value());
        return col + (f.op().equals("like") ? " LIKE #{" : " NOT LIKE #{") + param + "}";
      default:
        if (f.value() == null) {
          throw new SqlError(ErrorType.INVALID_ARGUMENT, "filter on " + dim.name() + " needs a value");
        }
        return lhs + " " + (f.op().equals("!=") ? "<>" : f.op()) + " " + bind(param, f.value(), time, params);
    }
  }

  /**
   * The placeholder for one value. A time value arrives as text ('2024-01-31', '2024-01-31 12:00');
   * the engine converts it, since the drivers will not bind text to a timestamp parameter.
   */
  private String bind(String param, Object value, boolean time, JsonObject params) {
    if (!time) {
      params.put(param, value);
      return "#{" + param + "}";
    }
    if (!(value instanceof String)) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "a time filter takes a date or timestamp as text, e.g. "
          + "'2024-01-31' or '2024-01-31 12:00:00'; got " + value);
    }
    params.put(param, value);
    return switch (dialect) {
      case POSTGRES -> "CAST(CAST(#{" + param + "} AS text) AS timestamp)";
      case MYSQL -> "CAST(#{" + param + "} AS DATETIME)";
      case SQLITE -> "datetime(#{" + param + "})";
    };
  }

  private String orderBy(JsonObject q, List<Dim> dims, List<Meas> ms) {
    JsonArray order = q.getJsonArray("order_by", q.getJsonArray("orderBy", new JsonArray()));
    List<String> out = new ArrayList<>();
    Set<String> labels = new LinkedHashSet<>();
    dims.forEach(d -> labels.add(d.label()));
    ms.forEach(m -> labels.add(m.label()));
    for (Object o : order) {
      String id;
      boolean desc;
      if (o instanceof JsonObject j) {
        id = j.getString("id", j.getString("field", j.getString("name")));
        desc = j.getBoolean("desc", "desc".equalsIgnoreCase(j.getString("direction", "asc")));
      } else {
        String[] parts = String.valueOf(o).trim().split("\\s+");
        id = parts[0];
        desc = parts.length > 1 && parts[1].equalsIgnoreCase("desc");
      }
      String label = labels.contains(id) ? id : labels.stream().filter(l -> l.startsWith(id + ".")).findFirst()
          .orElse(null);
      if (label == null) {
        List<String> near = NameSuggester.similar(id, labels);
        throw new SqlError(ErrorType.INVALID_ARGUMENT, "order_by '" + id + "' is not a requested measure or dimension"
            + (near.isEmpty() ? "; requested: " + labels : "; did you mean " + near.get(0) + "?"))
            .with("suggestions", new JsonArray(near));
      }
      out.add(quote(label) + (desc ? " DESC" : " ASC"));
    }
    return out.isEmpty() ? "" : " ORDER BY " + String.join(", ", out);
  }

  /** Equal, or both NULL; spelled the portable way so the guard's parser reads it on every dialect. */
  private static String nullSafeEquals(String a, String b) {
    return "(" + a + " = " + b + " OR (" + a + " IS NULL AND " + b + " IS NULL))";
  }

  String quote(String id) {
    return dialect == Dialect.MYSQL ? "`" + id.replace("`", "``") + "`" : "\"" + id.replace("\"", "\"\"") + "\"";
  }

  private String[] field(String name) {
    int dot = name == null ? -1 : name.indexOf('.');
    if (dot < 0) {
      throw unknown(name, "field (write it source.field)");
    }
    String source = name.substring(0, dot);
    if (!layer.sources().containsKey(source)) {
      List<String> near = NameSuggester.similar(source, layer.sources().keySet());
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "no semantic source '" + source + "'"
          + (near.isEmpty() ? "; sources: " + layer.sources().keySet() : "; did you mean " + near.get(0) + "?"))
          .with("suggestions", new JsonArray(near));
    }
    return new String[] {source, name.substring(dot + 1)};
  }

  private SqlError unknown(String name, String kind) {
    List<String> all = new ArrayList<>();
    layer.sources().values().forEach(s -> {
      s.measures().keySet().forEach(m -> all.add(s.name() + "." + m));
      s.dimensions().keySet().forEach(d -> all.add(s.name() + "." + d));
      s.segments().keySet().forEach(g -> all.add(s.name() + "." + g));
    });
    List<String> near = NameSuggester.similar(String.valueOf(name), all);
    return new SqlError(ErrorType.INVALID_ARGUMENT, "no " + kind + " '" + name + "'"
        + (near.isEmpty() ? "" : "; did you mean " + near.get(0) + "?")).with("suggestions", new JsonArray(near));
  }

  private static String labels(List<Meas> ms) {
    return String.join(", ", ms.stream().map(Meas::label).toList());
  }
}
