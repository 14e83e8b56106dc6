package dev.sluice.discovery;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.semantic.SemanticLayer;
import dev.sluice.semantic.SemanticSource;
import dev.sluice.wiki.WikiPage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What discovery searches: one entry per semantic-layer field, table, column and wiki page. */
public final class DiscoveryEntries {

  private DiscoveryEntries() {}

  public static List<DiscoveryEntry> of(List<CatalogSnapshot> snapshots, List<WikiPage> pages,
      Map<String, SemanticLayer> semantic) {
    List<DiscoveryEntry> entries = new ArrayList<>();
    semantic.forEach((conn, layer) -> layer.sources().values().forEach(src -> semantic(entries, conn, src)));
    for (CatalogSnapshot s : snapshots) {
      for (CatalogTable t : s.tables()) {
        List<String> columnNames = t.columns().stream().map(CatalogColumn::name).toList();
        entries.add(new DiscoveryEntry("table", t.ref().display(), s.connectionId(), t.ref(), null,
            t.ref().name(), null, t.comment(), "comment", List.of(), null, columnNames, null,
            List.of(s.connectionId()), MeaningTexts.table(t)));
        for (CatalogColumn c : t.columns()) {
          entries.add(new DiscoveryEntry("column", t.ref().display() + "." + c.name(), s.connectionId(), t.ref(),
              c.name(), c.name(), t.ref().name(), c.comment(), "comment", c.sampleValues(), c.nativeType(),
              List.of(), null, List.of(s.connectionId()), MeaningTexts.column(t, c)));
        }
      }
    }
    for (WikiPage p : pages) {
      String name = p.title() + " " + p.key() + " " + String.join(" ", p.tags());
      entries.add(new DiscoveryEntry("wiki", p.key(), null, null, null, name, null,
          p.summary().isEmpty() ? null : p.summary(), "description", List.of(), null, List.of(), p.body(),
          p.connections(), MeaningTexts.page(p)));
    }
    return entries;
  }

  private static void semantic(List<DiscoveryEntry> entries, String conn, SemanticSource src) {
    List<String> fields = new ArrayList<>(src.measures().keySet());
    fields.addAll(src.dimensions().keySet());
    entries.add(new DiscoveryEntry("sl_source", src.name(), conn, null, null, src.name() + " " + src.table(), null,
        src.description(), "description", List.of(), null, fields, null, List.of(conn), MeaningTexts.source(src)));
    src.measures().values().forEach(m -> entries.add(new DiscoveryEntry("sl_measure", src.name() + "." + m.name(),
        conn, null, null, m.name(), src.name(), m.description(), "description", List.of(), formula(m),
        List.of(), null, List.of(conn), MeaningTexts.measure(src, m))));
    src.dimensions().values().forEach(d -> entries.add(new DiscoveryEntry("sl_dimension", src.name() + "." + d.name(),
        conn, null, null, d.name(), src.name(), d.description(), "description", List.of(),
        d.name() + " (" + d.type() + ")", List.of(), null, List.of(conn), MeaningTexts.dimension(src, d))));
  }

  /** A measure's calculation as its snippet shows it: {@code sum(total)}, {@code revenue / order_count}. */
  static String formula(SemanticSource.Measure m) {
    if (m.expr() != null) {
      return m.agg() + "(" + m.expr() + ")";
    }
    return m.agg().equals("ratio") ? m.numerator() + " / " + m.denominator()
        : m.agg() + "(" + (m.column() == null ? "*" : m.column()) + ")";
  }
}
