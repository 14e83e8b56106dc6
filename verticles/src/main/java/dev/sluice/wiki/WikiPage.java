package dev.sluice.wiki;

import java.time.Instant;
import java.util.List;

/**
 * One wiki page as stored: markdown body plus its YAML frontmatter. The catalog's discovery index
 * and the wiki tools both read pages in this shape, so it lives apart from either.
 *
 * @param key safe path token naming the page (also its file name without {@code .md})
 * @param title page title (frontmatter {@code title}, else the first heading, else the key)
 * @param summary one-line summary from the frontmatter; empty when absent, never invented
 * @param tags free-form tags
 * @param connections connection ids the page is scoped to; empty means every connection
 * @param tableRefs tables the page talks about ({@code schema.table} as written)
 * @param slRefs semantic-layer entries the page talks about
 * @param body markdown after the frontmatter
 * @param updatedAt file modification time
 */
public record WikiPage(
    String key,
    String title,
    String summary,
    List<String> tags,
    List<String> connections,
    List<String> tableRefs,
    List<String> slRefs,
    String body,
    Instant updatedAt) {

  public WikiPage {
    tags = List.copyOf(tags);
    connections = List.copyOf(connections);
    tableRefs = List.copyOf(tableRefs);
    slRefs = List.copyOf(slRefs);
  }

  /** Unscoped pages are visible everywhere; scoped ones only for their connections. */
  public boolean visibleTo(String connectionId) {
    return connections.isEmpty() || connectionId == null || connections.contains(connectionId);
  }
}
