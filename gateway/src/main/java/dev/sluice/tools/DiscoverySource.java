package dev.sluice.tools;

import dev.sluice.catalog.CatalogBus;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.discovery.DiscoveryEntries;
import dev.sluice.discovery.DiscoveryIndex;
import dev.sluice.discovery.Meaning;
import dev.sluice.ingest.IngestBus;
import dev.sluice.wiki.WikiPage;
import dev.sluice.wiki.WikiStore;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The discovery index over every connection's latest snapshot, the wiki and the semantic layers,
 * rebuilt only when a snapshot's syncId, the wiki's version or a layer changes. Building runs on
 * a worker thread; concurrent callers during a rebuild may build twice, which is wasted work but
 * never a wrong answer. With {@link Meaning} the index gets its dense lane: vectors come from the
 * state store's cache, and what is new is embedded (inline when few, else in the background, one
 * job at a time on its own thread) — as soon as a scan or an ingest run finishes on this node once
 * discovery has been used here, else on the next call. Until a background job ends, searches use
 * the vectors that exist.
 */
public final class DiscoverySource {

  private final Vertx vertx;
  private final CatalogAccess catalog;
  private final WikiStore wiki;
  private final List<ConnectionConfig> connections;
  private final AtomicReference<Built> latest = new AtomicReference<>();
  private volatile dev.sluice.semantic.SemanticLayers semantic;
  private volatile Meaning meaning;

  /** Adds the semantic layers to what is searched (sl_source, sl_measure, sl_dimension refs). */
  public void withSemantic(dev.sluice.semantic.SemanticLayers layers) {
    this.semantic = layers;
  }

  /**
   * Adds the dense lane, and refreshes the index (so embedding starts) whenever a scan or an
   * ingest run finishes on this node — once discovery has been used here: a node that never
   * serves discover_data or wiki_search never loads the model (130 MB) nor spends the CPU, and the
   * boot's own scan does not compete with the first calls for the cores.
   */
  public void withMeaning(Meaning m) {
    this.meaning = m;
    vertx.eventBus().localConsumer(CatalogBus.SCANNED, msg -> refreshIfUsed());
    vertx.eventBus().localConsumer(IngestBus.CHANGED, msg -> refreshIfUsed());
  }

  private void refreshIfUsed() {
    if (latest.get() != null) {
      current();
    }
  }

  /**
   * The index plus which connections had no snapshot yet.
   *
   * @param snapshots the snapshots the index was built from, by connection id
   */
  public record Built(String identity, DiscoveryIndex index, List<String> unscanned,
      java.util.Map<String, CatalogSnapshot> snapshots) {

    Built withIndex(DiscoveryIndex i) {
      return new Built(identity, i, unscanned, snapshots);
    }
  }

  public DiscoverySource(Vertx vertx, CatalogAccess catalog, WikiStore wiki, List<ConnectionConfig> connections) {
    this.vertx = vertx;
    this.catalog = catalog;
    this.wiki = wiki;
    this.connections = List.copyOf(connections);
  }

  /** The semantic layers searched too, or null when none were added. */
  public dev.sluice.semantic.SemanticLayers semantic() {
    return semantic;
  }

  public WikiStore wiki() {
    return wiki;
  }

  /** One wiki page, read off the event loop. */
  public Future<java.util.Optional<WikiPage>> page(String key) {
    return vertx.executeBlocking(() -> wiki.read(key), false);
  }

  /** Wiki pages, read off the event loop. */
  public Future<List<WikiPage>> pages() {
    return vertx.executeBlocking(wiki::all, false);
  }

  /**
   * Ranked hits, searched on a worker thread: the dense lane runs the model on the query.
   *
   * @see DiscoveryIndex#search(String, Collection, Set, int)
   */
  public Future<List<DiscoveryIndex.Hit>> search(Built built, String query, Collection<String> scope,
      Set<String> kinds, int limit) {
    return vertx.executeBlocking(() -> built.index().search(query, scope, kinds, limit), false);
  }

  /**
   * Makes {@code b} the current index unless the current one is of the same content and further
   * embedded (a background job may finish before the inline build that started it is stored).
   */
  private void offer(Built b) {
    latest.updateAndGet(cur -> cur != null && cur.identity().equals(b.identity())
        && cur.index().embedded() >= b.index().embedded() && cur.index().hasMeaning() ? cur : b);
  }

  /** A background embedding job's result: taken only while its content is still the current one. */
  private void completed(Built b) {
    latest.updateAndGet(cur -> cur != null && cur.identity().equals(b.identity())
        && cur.index().embedded() < b.index().embedded() ? b : cur);
  }

  public Future<Built> current() {
    List<Future<Optional<CatalogSnapshot>>> loads = new ArrayList<>();
    connections.forEach(c -> loads.add(catalog.current(c.id())));
    Future<String> wikiVersion = vertx.executeBlocking(wiki::version, false);
    List<Future<dev.sluice.semantic.SemanticLayer>> layers = new ArrayList<>();
    if (semantic != null) {
      connections.forEach(c -> layers.add(semantic.of(c.id())));
    }
    return Future.all(Future.all(loads), wikiVersion, Future.all(layers)).compose(v -> {
      List<CatalogSnapshot> snapshots = new ArrayList<>();
      List<String> unscanned = new ArrayList<>();
      StringBuilder identity = new StringBuilder();
      for (int i = 0; i < connections.size(); i++) {
        Optional<CatalogSnapshot> s = loads.get(i).result();
        identity.append(connections.get(i).id()).append('=').append(s.map(CatalogSnapshot::syncId).orElse("-"))
            .append(';');
        if (s.isPresent()) {
          snapshots.add(s.get());
        } else {
          unscanned.add(connections.get(i).id());
        }
      }
      identity.append("wiki=").append(wikiVersion.result());
      java.util.Map<String, dev.sluice.semantic.SemanticLayer> sl = new java.util.LinkedHashMap<>();
      for (int i = 0; i < layers.size(); i++) {
        sl.put(connections.get(i).id(), layers.get(i).result());
        identity.append(";sl=").append(System.identityHashCode(layers.get(i).result()));
      }
      String id = identity.toString();
      Built cached = latest.get();
      if (cached != null && cached.identity().equals(id)) {
        return Future.succeededFuture(cached);
      }
      return vertx.executeBlocking(() -> {
        java.util.Map<String, CatalogSnapshot> byId = new java.util.HashMap<>();
        snapshots.forEach(snap -> byId.put(snap.connectionId(), snap));
        DiscoveryIndex index = DiscoveryIndex.build(DiscoveryEntries.of(snapshots, wiki.all(), sl));
        Meaning m = meaning;
        Built lexical = new Built(id, index, List.copyOf(unscanned), java.util.Map.copyOf(byId));
        Built built = m == null ? lexical : lexical.withIndex(m.attach(index, done -> completed(lexical.withIndex(done))));
        offer(built);
        return built;
      }, false);
    });
  }
}
