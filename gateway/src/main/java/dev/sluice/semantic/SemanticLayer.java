package dev.sluice.semantic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.access.CatalogView;
import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.sql.NameSuggester;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A connection's semantic layer: {@code <dir>/*.yaml}, one source per file, checked against the
 * connection's catalog snapshot. A source naming a table or column that does not exist is
 * disabled and reported (with the closest real name), never fatal; the rest stay usable.
 */
public final class SemanticLayer {

  private static final YAMLMapper YAML = new YAMLMapper();

  private final Map<String, SemanticSource> sources;
  private final List<String> problems;

  private SemanticLayer(Map<String, SemanticSource> sources, List<String> problems) {
    this.sources = sources;
    this.problems = problems;
  }

  public Map<String, SemanticSource> sources() {
    return sources;
  }

  public List<String> problems() {
    return problems;
  }

  /**
   * @param files source definitions by file name ({@code <name>.yaml}), in the order to load them
   * @param snapshot the catalog the sources are checked against; null when none was scanned yet
   */
  public static SemanticLayer load(Map<String, String> files, CatalogSnapshot snapshot) {
    Map<String, SemanticSource> out = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    files.forEach((file, text) -> {
      try {
        SemanticSource s = parse(YAML.readTree(text), file);
        String problem = check(s, snapshot);
        if (problem != null) {
          problems.add(problem + " (source disabled)");
        } else {
          out.put(s.name(), s);
        }
      } catch (IOException | RuntimeException e) {
        problems.add(file + ": " + e.getMessage() + " (source disabled)");
      }
    });
    for (SemanticSource s : new ArrayList<>(out.values())) {
      for (SemanticSource.Join j : s.joins()) {
        if (!out.containsKey(j.to())) {
          problems.add("source " + s.name() + ": join to unknown or disabled source '" + j.to() + "' ignored");
        }
      }
    }
    return new SemanticLayer(out, problems);
  }

  /**
   * The layer as a governed principal may see it ({@code view}: its part of the catalog): a source
   * over a table the view does not show is gone, and so are the dimensions, measures, segments and
   * joins that read a hidden column or a gone source, descriptions and problems that name something
   * hidden. sl_read_source, sl_query (and its "did you mean" suggestions) and discover_data read
   * this layer, so they show the principal what entity_details would.
   */
  public SemanticLayer visibleIn(CatalogView view) {
    Map<String, SemanticSource> out = new LinkedHashMap<>();
    for (SemanticSource s : sources.values()) {
      if (view.table(s.table()) != null) {
        out.put(s.name(), s);
      }
    }
    Map<String, SemanticSource> visible = new LinkedHashMap<>();
    for (SemanticSource s : out.values()) {
      Map<String, SemanticSource.Dimension> dims = new LinkedHashMap<>();
      s.dimensions().forEach((k, d) -> {
        if (fieldVisible(view, s.table(), d.column(), d.expr())) {
          dims.put(k, new SemanticSource.Dimension(d.name(), d.column(), d.expr(), d.type(), d.granularities(),
              shown(view, d.description())));
        }
      });
      Map<String, SemanticSource.Measure> ms = new LinkedHashMap<>();
      s.measures().forEach((k, m) -> {
        if (fieldVisible(view, s.table(), m.column(), m.expr())) {
          ms.put(k, new SemanticSource.Measure(m.name(), m.agg(), m.column(), m.expr(), m.numerator(),
              m.denominator(), shown(view, m.description()), m.format()));
        }
      });
      ms.values().removeIf(m -> m.agg().equals("ratio")
          && (!ms.containsKey(m.numerator()) || !ms.containsKey(m.denominator())));
      Map<String, SemanticSource.Segment> segs = new LinkedHashMap<>();
      s.segments().forEach((k, g) -> {
        if (!view.mentionsHidden(g.filter())) {
          segs.put(k, new SemanticSource.Segment(g.name(), g.filter(), shown(view, g.description())));
        }
      });
      List<SemanticSource.Join> joins = s.joins().stream().filter(j -> out.containsKey(j.to())
          && view.columnVisible(s.table(), j.local()) && view.columnVisible(out.get(j.to()).table(), j.remote()))
          .toList();
      visible.put(s.name(), new SemanticSource(s.name(), s.table(), shown(view, s.description()), joins, dims, ms,
          segs));
    }
    return new SemanticLayer(visible, problems.stream().filter(p -> !view.mentionsHidden(p)).toList());
  }

  private static boolean fieldVisible(CatalogView view, String table, String column, String expr) {
    return (column == null || view.columnVisible(table, column)) && !view.mentionsHidden(expr);
  }

  private static String shown(CatalogView view, String text) {
    return view.mentionsHidden(text) ? null : text;
  }

  static SemanticSource parse(JsonNode n, String file) {
    String name = text(n, "name", file.replaceFirst("\\.ya?ml$", ""));
    if (!name.matches("[a-z][a-z0-9_]{0,63}")) {
      throw new IllegalArgumentException("source name '" + name + "' must be lower-case letters, digits or '_'");
    }
    List<SemanticSource.Join> joins = new ArrayList<>();
    n.path("joins").forEach(j -> {
      String card = text(j, "cardinality", "many_to_one");
      if (!List.of("many_to_one", "one_to_many", "one_to_one").contains(card)) {
        throw new IllegalArgumentException("join to " + j.path("to").asText() + ": cardinality must be many_to_one, "
            + "one_to_many or one_to_one");
      }
      joins.add(new SemanticSource.Join(j.path("to").asText(), j.path("local").asText(), j.path("remote").asText(), card));
    });
    Map<String, SemanticSource.Dimension> dims = new LinkedHashMap<>();
    n.path("dimensions").forEach(d -> {
      List<String> grains = new ArrayList<>();
      d.path("granularities").forEach(g -> grains.add(g.asText()));
      String type = text(d, "type", "string");
      dims.put(d.path("name").asText(), new SemanticSource.Dimension(d.path("name").asText(), text(d, "column", null),
          text(d, "expr", null), type, type.equals("time") ? (grains.isEmpty() ? List.of("day", "month", "year") : grains)
          : null, text(d, "description", null)));
    });
    Map<String, SemanticSource.Measure> ms = new LinkedHashMap<>();
    n.path("measures").forEach(m -> {
      String agg = text(m, "agg", "count");
      if (!List.of("count", "count_distinct", "sum", "avg", "min", "max", "ratio").contains(agg)) {
        throw new IllegalArgumentException("measure " + m.path("name").asText() + ": unknown agg '" + agg + "'");
      }
      ms.put(m.path("name").asText(), new SemanticSource.Measure(m.path("name").asText(), agg, text(m, "column", null),
          text(m, "expr", null), text(m, "numerator", null), text(m, "denominator", null),
          text(m, "description", null), text(m, "format", null)));
    });
    Map<String, SemanticSource.Segment> segs = new LinkedHashMap<>();
    n.path("segments").forEach(s -> segs.put(s.path("name").asText(), new SemanticSource.Segment(s.path("name").asText(),
        s.path("filter").asText(), text(s, "description", null))));
    return new SemanticSource(name, text(n, "table", name), text(n, "description", null), joins, dims, ms, segs);
  }

  /** Null when every table and column the source names exists in the snapshot. */
  static String check(SemanticSource s, CatalogSnapshot snapshot) {
    if (snapshot == null) {
      return null;
    }
    CatalogTable t = snapshot.tables().stream().filter(x -> x.ref().name().equalsIgnoreCase(s.table())).findFirst()
        .orElse(null);
    if (t == null) {
      List<String> near = NameSuggester.similar(s.table(), snapshot.tables().stream().map(x -> x.ref().name()).toList());
      return "source " + s.name() + ": no table '" + s.table() + "'" + (near.isEmpty() ? "" : "; closest: " + near);
    }
    List<String> columns = t.columns().stream().map(CatalogColumn::name).toList();
    List<String[]> used = new ArrayList<>();
    s.dimensions().values().forEach(d -> used.add(new String[] {"dimension " + d.name(), d.column()}));
    s.measures().values().forEach(m -> used.add(new String[] {"measure " + m.name(), m.column()}));
    s.joins().forEach(j -> used.add(new String[] {"join to " + j.to(), j.local()}));
    for (String[] u : used) {
      if (u[1] != null && columns.stream().noneMatch(c -> c.equalsIgnoreCase(u[1]))) {
        List<String> near = NameSuggester.similar(u[1], columns);
        return "source " + s.name() + ", " + u[0] + ": no column '" + u[1] + "' in " + t.ref().display()
            + (near.isEmpty() ? "" : "; closest: " + near.get(0));
      }
    }
    for (SemanticSource.Measure m : s.measures().values()) {
      if (m.agg().equals("ratio") && (!s.measures().containsKey(m.numerator()) || !s.measures().containsKey(m.denominator()))) {
        return "source " + s.name() + ", measure " + m.name() + ": ratio needs numerator and denominator measures of "
            + "this source";
      }
      if (!m.agg().equals("ratio") && !m.agg().equals("count") && m.column() == null && m.expr() == null) {
        return "source " + s.name() + ", measure " + m.name() + ": " + m.agg() + " needs a column or expr";
      }
    }
    return null;
  }

  private static String text(JsonNode n, String field, String def) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? def : v.asText();
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
