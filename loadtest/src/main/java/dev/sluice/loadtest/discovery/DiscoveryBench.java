package dev.sluice.loadtest.discovery;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.discovery.DiscoveryEntries;
import dev.sluice.discovery.DiscoveryEntry;
import dev.sluice.discovery.DiscoveryIndex;
import dev.sluice.discovery.EmbeddingModel;
import dev.sluice.discovery.Lane;
import dev.sluice.discovery.OnnxTextEmbedder;
import dev.sluice.discovery.TextEmbedder;
import dev.sluice.discovery.VectorCache;
import dev.sluice.state.DirectoryStateStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * discover_data as a benchmark (issue 20). Part one: retrieval quality on the frozen evaluation
 * sets, per lane and fused: recall@1, recall@5 and MRR. The tune set always; the held-out set only
 * with {@code --holdout}, reported apart; the unseen set (written after the tuning, run once at
 * the end) only with {@code --unseen}; the sealed set (written blind after the unseen set was
 * seen) only with {@code --sealed}; the reserve set (written blind after the sealed set was used,
 * for the next round's blind measure) only with {@code --reserve}; the spare set (written blind
 * after the reserve set was used) only with {@code --spare}; the fresh set (written blind after
 * the spare set was used, not run by the stop that added it) only with {@code --fresh}. Part two: scale on a made-up
 * catalog: embedding time and heap per 1,000 columns, and search latency p50/p99 (query embedding
 * included, no query cache).
 *
 * <pre>
 * java -cp "$(loadtest_classpath)" dev.sluice.loadtest.discovery.DiscoveryBench [--holdout] [--unseen] [--sealed] [--reserve] [--spare] [--fresh] [--tables 1000]
 *     [--columns-per-table 10] [--queries 2000] [--no-scale] [--no-quality] [--misses] [--model minilm-l6-v2-q]
 * </pre>
 *
 * <p>{@code --model} names a model to compare (EmbeddingModel ids); the default is the shipped
 * one, bge-small-en-v15-q.
 */
public final class DiscoveryBench {

  static final Map<String, Set<Lane>> LANES = new LinkedHashMap<>();

  static {
    LANES.put("lexical", EnumSet.of(Lane.LEXICAL));
    LANES.put("typo", EnumSet.of(Lane.TYPO));
    LANES.put("dense", EnumSet.of(Lane.DENSE));
    // what discovery does where the model cannot run (no ONNX Runtime natives for the platform)
    LANES.put("lex+typo", EnumSet.of(Lane.LEXICAL, Lane.TYPO));
    LANES.put("fused", EnumSet.allOf(Lane.class));
  }

  /** The frozen sets run only when named, in the order they were written. */
  static final List<String> OPTIONAL_SETS = List.of("holdout", "unseen", "sealed", "reserve", "spare", "fresh");

  private DiscoveryBench() {}

  public static void main(String[] args) throws Exception {
    List<String> a = List.of(args);
    boolean misses = a.contains("--misses");
    int tables = intArg(a, "--tables", 1000);
    int perTable = intArg(a, "--columns-per-table", 10);
    int queries = intArg(a, "--queries", 2000);
    String modelId = a.contains("--model") ? a.get(a.indexOf("--model") + 1) : EmbeddingModel.SHIPPED.id();
    long loadStart = System.nanoTime();
    TextEmbedder model = OnnxTextEmbedder.load(EmbeddingModel.byId(modelId), 1).orElseThrow(() ->
        new IllegalStateException("model " + modelId + " or ONNX Runtime did not load"));
    System.out.printf("model load: %.2f s%n", (System.nanoTime() - loadStart) / 1e9);
    Path dir = Files.createTempDirectory("sluice-discovery-bench");
    try {
      System.out.println("model " + model.modelId() + ", " + model.dimension() + " dimensions");
      if (!a.contains("--no-quality")) {
        report("tune", quality("questions-tune.tsv", model, dir), misses);
      }
      // each further set only when asked for by name (--holdout, --unseen, ...), in this order
      for (String set : OPTIONAL_SETS) {
        if (a.contains("--" + set)) {
          report(set, quality("questions-" + set + ".tsv", model, dir), misses);
        }
      }
      if (!a.contains("--no-scale")) {
        scale(model, dir, tables, perTable, queries);
      }
    } finally {
      deleteTree(dir);
    }
    System.exit(0);
  }

  /** Scores every question of {@code file} on each lane alone and on the fusion. */
  static Map<String, RetrievalScore> quality(String file, TextEmbedder model, Path dir) {
    List<EvalQuestion> questions = EvalQuestion.load(file);
    Map<String, DiscoveryIndex> indexes = new LinkedHashMap<>();
    VectorCache cache = new VectorCache(new DirectoryStateStore(dir), model);
    for (EvalQuestion q : questions) {
      indexes.computeIfAbsent(q.connection(), conn -> {
        EvalCatalog c = EvalCatalog.load(conn);
        List<DiscoveryEntry> entries = DiscoveryEntries.of(List.of(c.snapshot()), c.pages(),
            Map.of(conn, c.layer()));
        return DiscoveryIndex.build(entries).withMeaning(cache.vectors(entries, null), model);
      });
    }
    Map<String, RetrievalScore> scores = new LinkedHashMap<>();
    LANES.keySet().forEach(l -> scores.put(l, new RetrievalScore()));
    for (EvalQuestion q : questions) {
      DiscoveryIndex index = indexes.get(q.connection());
      LANES.forEach((label, lanes) -> {
        List<String> top = index.search(q.text(), List.of(q.connection()), Set.of(), RetrievalScore.DEPTH, lanes)
            .stream().map(h -> EvalQuestion.refOf(h.entry().kind(), h.entry().id())).toList();
        int rank = 0;
        for (int i = 0; i < top.size(); i++) {
          if (q.answers().contains(top.get(i))) {
            rank = i + 1;
            break;
          }
        }
        scores.get(label).add(rank, q.connection() + ": " + q.text() + " (want " + q.answers() + ")", top);
      });
    }
    return scores;
  }

  static void report(String set, Map<String, RetrievalScore> scores, boolean misses) {
    System.out.println("\n" + set + " set: " + scores.get("fused").questions() + " questions");
    scores.forEach((lane, s) -> System.out.println(s.line(lane)));
    if (misses) {
      String lane = System.getProperty("bench.missesOf", "fused");
      scores.get(lane).misses().forEach(m -> System.out.println("    " + lane + " miss@5: " + m));
    }
  }

  /** Embedding cost per 1,000 columns and search latency on a catalog of {@code tables x perTable} columns. */
  static void scale(TextEmbedder model, Path dir, int tables, int perTable, int queries) throws IOException {
    CatalogSnapshot snapshot = SyntheticCatalog.of("big", tables, perTable);
    List<DiscoveryEntry> entries = DiscoveryEntries.of(List.of(snapshot), List.of(), Map.of());
    int columns = tables * perTable;
    System.out.printf("%nscale: %,d tables, %,d columns, %,d entries%n", tables, columns, entries.size());
    long heapBefore = usedHeapAfterGc();
    HeapPeak peak = new HeapPeak();
    Path store = Files.createDirectories(dir.resolve("scale"));
    long t0 = System.nanoTime();
    float[][] vectors = new VectorCache(new DirectoryStateStore(store), model).vectors(entries, null);
    long embedNanos = System.nanoTime() - t0;
    DiscoveryIndex index = DiscoveryIndex.build(entries).withMeaning(vectors, model);
    long buildNanos = System.nanoTime() - t0 - embedNanos;
    peak.stop();
    long heapAfter = usedHeapAfterGc();
    long embedded = entries.stream().filter(e -> !e.meaning().isEmpty()).count();
    System.out.printf("  embedding: %,d texts (key columns have none) in %.1f s (%.1f ms per text, 1 ONNX thread) = "
        + "%.1f s per 1,000 columns (with their tables)%n", embedded, embedNanos / 1e9, embedNanos / 1e6 / embedded,
        embedNanos / 1e9 / columns * 1000);
    System.out.printf("  lexical index build: %.2f s%n", buildNanos / 1e9);
    System.out.printf("  heap: %.1f MB retained by index + vectors (%.1f MB per 1,000 columns), peak %.1f MB used while"
        + " embedding (heap before %.1f MB)%n", (heapAfter - heapBefore) / 1e6, (heapAfter - heapBefore) / 1e6 / columns
        * 1000, peak.max() / 1e6, heapBefore / 1e6);
    long stored = Files.walk(store).filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    System.out.printf("  vector cache in the state store: %.1f MB%n", stored / 1e6);
    List<String> texts = new ArrayList<>();
    EvalQuestion.load("questions-tune.tsv").forEach(q -> texts.add(q.text()));
    latency("fused (query embedded every call)", index, texts, queries, EnumSet.allOf(Lane.class));
    latency("dense alone (query embedded every call)", index, texts, queries, EnumSet.of(Lane.DENSE));
    Histogram embed = new Histogram(3_600_000_000L, 3);
    for (int i = 0; i < queries; i++) {
      long t = System.nanoTime();
      model.query(texts.get(i % texts.size()));
      embed.recordValue((System.nanoTime() - t) / 1_000);
    }
    System.out.printf("  of which query embedding alone: p50 %.2f ms, p99 %.2f ms%n",
        embed.getValueAtPercentile(50) / 1e3, embed.getValueAtPercentile(99) / 1e3);
    latency("lexical + typo only", index, texts, queries, EnumSet.of(Lane.LEXICAL, Lane.TYPO));
  }

  private static void latency(String label, DiscoveryIndex index, List<String> texts, int queries, Set<Lane> lanes) {
    // start each measurement from a collected heap: embedding a catalog leaves garbage whose
    // collection would otherwise land in the first measurement only
    usedHeapAfterGc();
    Histogram h = new Histogram(3_600_000_000L, 3);
    int warmup = 500;
    for (int i = 0; i < queries + warmup; i++) {
      // the index embeds with the bare model (no RecentQueries), so every call runs the model
      String q = texts.get(i % texts.size());
      long t = System.nanoTime();
      index.search(q, List.of("big"), Set.of(), 45, lanes);
      if (i >= warmup) {
        h.recordValue((System.nanoTime() - t) / 1_000);
      }
    }
    System.out.printf("  search latency, %s: p50 %.2f ms, p99 %.2f ms, max %.2f ms over %,d queries%n", label,
        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getMaxValue() / 1e3, queries);
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Samples used heap every 50 ms until stopped. */
  private static final class HeapPeak {
    private final AtomicLong max = new AtomicLong();
    private final Thread sampler;

    HeapPeak() {
      sampler = new Thread(() -> {
        while (!Thread.currentThread().isInterrupted()) {
          max.accumulateAndGet(ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed(), Math::max);
          try {
            Thread.sleep(50);
          } catch (InterruptedException e) {
            return;
          }
        }
      }, "heap-peak");
      sampler.setDaemon(true);
      sampler.start();
    }

    void stop() {
      sampler.interrupt();
    }

    long max() {
      return max.get();
    }
  }

  private static int intArg(List<String> a, String name, int def) {
    int i = a.indexOf(name);
    return i >= 0 && i + 1 < a.size() ? Integer.parseInt(a.get(i + 1)) : def;
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
