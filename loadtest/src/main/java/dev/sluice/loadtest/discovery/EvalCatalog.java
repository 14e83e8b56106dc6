package dev.sluice.loadtest.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import dev.sluice.semantic.SemanticLayer;
import dev.sluice.wiki.WikiPage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One frozen evaluation catalog ({@code discovery-eval/schemas/<connection>.yaml}) as the gateway
 * would hold it after a scan: the snapshot, the wiki pages and the semantic layer.
 */
record EvalCatalog(String connection, CatalogSnapshot snapshot, List<WikiPage> pages, SemanticLayer layer) {

  private static final YAMLMapper YAML = new YAMLMapper();

  static EvalCatalog load(String connection) {
    String path = "/discovery-eval/schemas/" + connection + ".yaml";
    try (InputStream in = EvalCatalog.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no evaluation catalog " + path);
      }
      return parse(YAML.readTree(in));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static EvalCatalog parse(JsonNode n) {
    String conn = n.path("connection").asText();
    String driver = n.path("driver").asText();
    String database = n.path("database").asText();
    List<CatalogTable> tables = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = n.path("tables").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> t = it.next();
      String[] qualified = t.getKey().split("\\.", 2);
      TableRef ref = switch (driver) {
        case "postgres" -> new TableRef(database, qualified[0], qualified[1]);
        default -> new TableRef(null, qualified[0], qualified[1]);
      };
      List<CatalogColumn> columns = new ArrayList<>();
      t.getValue().path("columns").forEach(c -> columns.add(column(c.asText())));
      JsonNode comment = t.getValue().get("comment");
      tables.add(new CatalogTable(ref, "table", comment == null || comment.isNull() ? null : comment.asText(), 1000L,
          columns, List.of()));
    }
    CatalogSnapshot snapshot = new CatalogSnapshot(conn, driver, "eval-" + conn, "2026-01-01T00:00:00Z", 0, tables,
        List.of(), new ProfileInfo(1000, 5, columns(tables), "2026-01-01T00:00:00Z"));
    List<WikiPage> pages = new ArrayList<>();
    n.path("wiki").forEach(p -> pages.add(new WikiPage(p.path("key").asText(), p.path("title").asText(),
        p.path("summary").asText(""), List.of(), List.of(conn), List.of(), List.of(), p.path("body").asText(),
        Instant.parse("2026-01-01T00:00:00Z"))));
    Map<String, String> sources = new LinkedHashMap<>();
    int i = 0;
    for (JsonNode s : n.path("semantic")) {
      sources.put("source" + i++ + ".yaml", s.asText());
    }
    SemanticLayer layer = SemanticLayer.load(sources, snapshot);
    if (!layer.problems().isEmpty()) {
      throw new IllegalStateException(conn + ": semantic layer problems " + layer.problems());
    }
    return new EvalCatalog(conn, snapshot, pages, layer);
  }

  private static int columns(List<CatalogTable> tables) {
    return tables.stream().mapToInt(t -> t.columns().size()).sum();
  }

  /** {@code name type [pk] | comment | sample, sample}. */
  static CatalogColumn column(String line) {
    String[] parts = line.split("\\|", -1);
    String[] head = parts[0].trim().split("\\s+");
    boolean pk = head.length > 2 && head[2].equals("pk");
    String comment = parts.length > 1 && !parts[1].isBlank() ? parts[1].trim() : null;
    List<String> samples = parts.length > 2 && !parts[2].isBlank()
        ? Arrays.stream(parts[2].split(",")).map(String::trim).toList() : List.of();
    return new CatalogColumn(head[0], head[1], head[1], "string", !pk, pk, comment, samples,
        samples.isEmpty() ? null : (long) samples.size());
  }
}
