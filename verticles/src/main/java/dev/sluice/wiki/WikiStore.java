package dev.sluice.wiki;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wiki pages as markdown entries in the state store ({@code wiki/<key>.md}), each optionally
 * opening with a YAML frontmatter block ({@code title, summary, tags, connections, tables,
 * sl_refs}). Pages are re-read when the area's version changes ({@link #version()}). Blocking:
 * call from a worker thread.
 */
public final class WikiStore implements WikiPages {

  public static final String AREA = "wiki";
  private static final Logger LOG = LoggerFactory.getLogger(WikiStore.class);
  private static final YAMLMapper YAML = new YAMLMapper();

  private final StateStore store;
  private volatile Snapshot cache = new Snapshot("", List.of());

  private record Snapshot(String version, List<WikiPage> pages) {}

  public WikiStore(StateStore store) {
    this.store = store;
  }

  /** The single-node store in {@code stateDir}. */
  public WikiStore(Path stateDir) {
    this(new DirectoryStateStore(stateDir));
  }

  @Override
  public List<WikiPage> all() {
    String v = store.areaVersion(AREA);
    Snapshot s = cache;
    if (s.version().equals(v)) {
      return s.pages();
    }
    List<WikiPage> pages = new ArrayList<>();
    for (StateStore.Entry e : store.all(AREA)) {
      if (!e.key().endsWith(".md") || !WikiKeys.valid(e.key().substring(0, e.key().length() - 3))) {
        continue;
      }
      String key = e.key().substring(0, e.key().length() - 3);
      try {
        pages.add(parse(key, e.text(), e.updatedAt()));
      } catch (IOException | RuntimeException ex) {
        // One unreadable page must not hide the others; it is logged and skipped.
        LOG.warn("wiki page {} skipped: {}", key, ex.getMessage());
      }
    }
    cache = new Snapshot(v, List.copyOf(pages));
    return cache.pages();
  }

  public Optional<WikiPage> read(String key) {
    if (!WikiKeys.valid(key)) {
      return Optional.empty();
    }
    return all().stream().filter(p -> p.key().equals(key)).findFirst();
  }

  /** Changes whenever a page is created, replaced or removed. */
  @Override
  public String version() {
    return store.areaVersion(AREA);
  }

  static WikiPage parse(String key, String text, java.time.Instant updatedAt) throws IOException {
    String body = text;
    JsonNode front = null;
    String normalized = text.replace("\r\n", "\n");
    if (normalized.startsWith("---\n")) {
      int end = normalized.indexOf("\n---", 4);
      if (end > 0) {
        front = YAML.readTree(normalized.substring(4, end));
        int after = normalized.indexOf('\n', end + 4);
        body = after < 0 ? "" : normalized.substring(after + 1);
      }
    }
    String title = text(front, "title");
    if (title == null) {
      title = body.lines().filter(l -> l.startsWith("# ")).map(l -> l.substring(2).trim()).findFirst().orElse(key);
    }
    String summary = text(front, "summary");
    return new WikiPage(key, title, summary == null ? "" : summary, list(front, "tags"), list(front, "connections"),
        list(front, "tables"), list(front, "sl_refs"), body.strip(), updatedAt);
  }

  private static String text(JsonNode front, String field) {
    JsonNode v = front == null ? null : front.get(field);
    return v == null || v.isNull() || v.asText().isBlank() ? null : v.asText().trim();
  }

  private static List<String> list(JsonNode front, String field) {
    JsonNode v = front == null ? null : front.get(field);
    List<String> out = new ArrayList<>();
    if (v == null || v.isNull()) {
      return out;
    }
    if (v.isArray()) {
      v.forEach(x -> out.add(x.asText()));
    } else {
      for (String s : v.asText().split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return out;
  }
}
