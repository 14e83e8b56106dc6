package dev.sluice.approved;

import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import dev.sluice.mcp.tool.Tool;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The approved queries currently defined, reloaded when their directory changes (checked every
 * two seconds) or on SIGHUP. Definitions with {@code as_tool: true} are registered as their own
 * MCP tools; the registry's change fires notifications/tools/list_changed to open sessions. A
 * reload that fails keeps the previous definitions and logs why.
 */
public final class ApprovedCatalog {

  private static final Logger LOG = LoggerFactory.getLogger(ApprovedCatalog.class);
  static final long POLL_MS = 2_000;

  /** Where a shared store keeps the definitions (`sluice approved push` writes them). */
  public static final String SHARED_AREA = "approved";

  private final StateStore store;
  private final String area;
  private final String where;
  private final Set<String> connectionIds;
  private final ToolRegistry tools;
  private final ConnectionDirectory directory;
  private final AtomicReference<Map<String, ApprovedQuery>> current = new AtomicReference<>(Map.of());
  private final AtomicReference<String> version = new AtomicReference<>("");

  /** The definitions in {@code dir} ({@code approved_queries_dir}): one node, or the same files on each. */
  public ApprovedCatalog(Path dir, Set<String> connectionIds, ToolRegistry tools, ConnectionDirectory directory) {
    this(new DirectoryStateStore(dir), "", dir.toString(), connectionIds, tools, directory);
  }

  /**
   * @param store where the definitions are: the approved directory, or the shared state store's
   *     {@link #SHARED_AREA} area, which every node of a cluster reads
   */
  public ApprovedCatalog(StateStore store, String area, String where, Set<String> connectionIds, ToolRegistry tools,
      ConnectionDirectory directory) {
    this.store = store;
    this.area = area;
    this.where = where;
    this.connectionIds = connectionIds;
    this.tools = tools;
    this.directory = directory;
  }

  public Map<String, ApprovedQuery> all() {
    return current.get();
  }

  /** Loads now (fails loudly at start), then watches the directory. */
  public void start(Vertx vertx) {
    reload(true);
    vertx.setPeriodic(POLL_MS, id -> vertx.executeBlocking(() -> {
      reload(false);
      return null;
    }, true));
    try {
      sun.misc.Signal.handle(new sun.misc.Signal("HUP"), sig -> vertx.executeBlocking(() -> {
        version.set("");
        reload(false);
        return null;
      }, true));
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      LOG.info("SIGHUP reload unavailable here ({}); the directory is still watched", e.getMessage());
    }
  }

  /** Re-reads the definitions when they changed; {@code strict} rethrows a bad definition. */
  public synchronized void reload(boolean strict) {
    String v = store.areaVersion(area);
    if (v.equals(version.get())) {
      return;
    }
    Map<String, ApprovedQuery> next;
    try {
      Map<String, String> files = new java.util.TreeMap<>();
      store.all(area).forEach(e -> files.put(e.key(), e.text()));
      next = ApprovedQueries.load(files, connectionIds);
    } catch (RuntimeException e) {
      if (strict) {
        throw new IllegalStateException("approved queries in " + where + ": " + e.getMessage(), e);
      }
      LOG.error("approved queries not reloaded, keeping the previous ones: {}", e.getMessage());
      version.set(v);
      return;
    }
    Map<String, ApprovedQuery> previous = current.getAndSet(next);
    version.set(v);
    List<String> removed = previous.values().stream().filter(ApprovedQuery::asTool).map(ApprovedQuery::id).toList();
    List<Tool> added = new ArrayList<>();
    for (ApprovedQuery q : next.values()) {
      if (q.asTool()) {
        if (tools.get(q.id()) != null && !removed.contains(q.id())) {
          LOG.error("approved query '{}' is not exposed as a tool: a tool of that name exists", q.id());
          continue;
        }
        added.add(new ApprovedQueryTool(q, directory));
      }
    }
    // one swap, one list_changed: a client that lists on the notification sees the new set
    tools.replace(removed, added);
    LOG.info("approved queries loaded from {}: {}", where, next.keySet());
  }
}
