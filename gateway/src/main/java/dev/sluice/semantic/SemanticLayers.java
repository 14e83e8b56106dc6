package dev.sluice.semantic;

import dev.sluice.access.TablePolicy;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.tools.CatalogAccess;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Each connection's semantic layer: the sources in the state store's {@code semantic/<connectionId>}
 * area (with the directory store, the files {@code <state.dir>/semantic/<connectionId>/*.yaml}).
 * With a shared store, files deployed in that local directory count too (the store wins on a
 * name clash), so operators can ship sources with each node while ingested ones reach every node.
 * Re-read when a source changes or the catalog snapshot advances (sources are checked against it).
 */
public final class SemanticLayers {

  private final Vertx vertx;
  private final StateStore store;
  private final DirectoryStateStore local;
  private final CatalogAccess catalog;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  private record Cached(String identity, SemanticLayer layer) {}

  public SemanticLayers(Vertx vertx, StateStore store, Path stateDir, CatalogAccess catalog) {
    this.vertx = vertx;
    this.store = store;
    this.local = store.shared() ? new DirectoryStateStore(stateDir) : null;
    this.catalog = catalog;
  }

  /** The store area of a connection's sources. */
  public static String area(String connectionId) {
    return "semantic/" + connectionId;
  }

  public Future<SemanticLayer> of(String connectionId) {
    return catalog.current(connectionId).compose(snap -> vertx.executeBlocking(() -> {
      String area = area(connectionId);
      String id = store.areaVersion(area) + "/" + (local == null ? "" : local.areaVersion(area)) + "/"
          + snap.map(CatalogSnapshot::syncId).orElse("-");
      Cached c = cache.get(connectionId);
      if (c != null && c.identity().equals(id)) {
        return c.layer();
      }
      Map<String, String> files = new TreeMap<>();
      if (local != null) {
        local.all(area).forEach(e -> files.put(e.key(), e.text()));
      }
      store.all(area).forEach(e -> files.put(e.key(), e.text()));
      files.keySet().removeIf(k -> !k.endsWith(".yaml") && !k.endsWith(".yml"));
      SemanticLayer layer = SemanticLayer.load(files, snap.orElse(null));
      cache.put(connectionId, new Cached(id, layer));
      return layer;
    }, false));
  }

  /**
   * The connection's layer as {@code principal} may see it: the whole layer when no table policy
   * governs it there, else {@link SemanticLayer#visibleIn} its catalog view.
   */
  public Future<SemanticLayer> of(String connectionId, String principal, TablePolicy policy) {
    return of(connectionId).compose(layer -> policy.view(principal, connectionId)
        .map(view -> view.map(layer::visibleIn).orElse(layer)));
  }

  public Optional<SemanticLayer> cached(String connectionId) {
    return Optional.ofNullable(cache.get(connectionId)).map(Cached::layer);
  }
}
