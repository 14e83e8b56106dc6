package dev.sluice.discovery;

import dev.sluice.state.StateStore;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives discovery indexes their dense lane. The model loads once, when the first index is built
 * (the first discover_data or wiki_search call, so it does not slow the boot), on this object's
 * own thread; that thread also embeds what the cache lacks, one job at a time, so bulk
 * embedding never takes more than one core from serving. A small change (a rescan that touched a
 * few tables, a new wiki page) is embedded at once by the caller's worker thread; a large one (the
 * first scan of a big catalog) is embedded in the background while searches use the vectors that
 * already exist, and a newer job replaces a pending older one.
 */
public final class Meaning implements AutoCloseable {

  /**
   * New texts embedded inline, before the index is handed out: 6 to 7 ms each on an idle core,
   * 1.3 s at most.
   */
  static final int INLINE_LIMIT = 200;
  private static final Logger LOG = LoggerFactory.getLogger(Meaning.class);

  private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "sluice-embedding");
    t.setDaemon(true);
    return t;
  });
  private final StateStore store;
  private final Supplier<Optional<TextEmbedder>> model;
  /** Loading starts with the first index (after the start-up scan), not with the gateway's boot. */
  private CompletableFuture<Optional<Loaded>> loaded;
  private final AtomicReference<Runnable> pending = new AtomicReference<>();

  private record Loaded(VectorCache cache, TextEmbedder queries) {}

  /**
   * @param store where vectors are cached (the gateway's state store)
   * @param model loads the model; empty when this platform cannot run it
   */
  public Meaning(StateStore store, Supplier<Optional<TextEmbedder>> model) {
    this.store = store;
    this.model = model;
  }

  private synchronized CompletableFuture<Optional<Loaded>> loaded() {
    if (loaded == null) {
      loaded = CompletableFuture.supplyAsync(() -> {
        long t0 = System.nanoTime();
        Optional<Loaded> l = model.get().map(m -> new Loaded(new VectorCache(store, m), new RecentQueries(m)));
        l.ifPresent(x -> LOG.info("discovery: sentence-embedding model {} loaded in {} ms",
            x.cache().model().modelId(), (System.nanoTime() - t0) / 1_000_000));
        return l;
      }, thread);
    }
    return loaded;
  }

  /** The product's model ({@link EmbeddingModel#SHIPPED}) on one ONNX Runtime thread. */
  public static Meaning shipped(StateStore store) {
    return new Meaning(store, () -> OnnxTextEmbedder.load(1));
  }

  /**
   * {@code index} with its dense lane as far as it can be had now. Blocking (waits for the model
   * to load the first time). When more must be embedded than {@link #INLINE_LIMIT}, the full index
   * is handed to {@code later} once the background job is done.
   */
  public DiscoveryIndex attach(DiscoveryIndex index, Consumer<DiscoveryIndex> later) {
    Optional<Loaded> l = loaded().join();
    if (l.isEmpty()) {
      return index;
    }
    float[][] cached = l.get().cache().cached(index.entries());
    int missing = 0;
    for (int i = 0; i < cached.length; i++) {
      missing += cached[i] == null && !index.entries().get(i).meaning().isEmpty() ? 1 : 0;
    }
    if (missing <= INLINE_LIMIT) {
      return index.withMeaning(l.get().cache().vectors(index.entries(), null), l.get().queries());
    }
    LOG.info("discovery: embedding {} new texts in the background ({} cached)", missing,
        index.entries().size() - missing);
    schedule(() -> {
      VectorCache cache = l.get().cache();
      float[][] all = cache.vectors(index.entries(), s -> LOG.info(
          "discovery: embedded {} texts in {} ms ({} reused)", s.embedded(), s.embedMs(), s.reused()));
      later.accept(index.withMeaning(all, l.get().queries()));
    });
    return index.withMeaning(cached, l.get().queries());
  }

  /** Runs the newest job; a job still pending when a newer one arrives is dropped. */
  private void schedule(Runnable job) {
    if (pending.getAndSet(job) == null) {
      thread.execute(() -> {
        Runnable next;
        while ((next = pending.getAndSet(null)) != null) {
          try {
            next.run();
          } catch (RuntimeException e) {
            LOG.warn("discovery: background embedding failed: {}", e.toString());
          }
        }
      });
    }
  }

  @Override
  public synchronized void close() {
    thread.shutdownNow();
    if (loaded == null) {
      return;
    }
    loaded.thenAccept(l -> l.ifPresent(x -> {
      if (x.cache().model() instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          LOG.debug("closing the model: {}", e.toString());
        }
      }
    }));
  }
}
