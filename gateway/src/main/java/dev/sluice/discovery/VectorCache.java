package dev.sluice.discovery;

import dev.sluice.state.StateStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Meaning vectors by content hash, kept in the state store so that a cluster shares them, a
 * restart reuses them and a rescan embeds only what changed. One store entry per group of entries
 * ({@code catalog.<connection>}, {@code wiki}, {@code sl.<connection>}) under area {@value #AREA},
 * key {@code <group>.<model>}; each line {@code <hash> <vector>}. A group's entry is rewritten
 * only when its set of texts changed, with exactly the current texts, so it never grows with
 * history. Blocking: call from a worker thread.
 */
public final class VectorCache {

  public static final String AREA = "discovery-vectors";
  /** Texts embedded between two progress log lines. */
  private static final int LOG_EVERY = 2_000;
  private static final Logger LOG = LoggerFactory.getLogger(VectorCache.class);

  private final StateStore store;
  private final TextEmbedder model;
  /** The group entries as last read or written, by group: their version and vectors. */
  private final Map<String, Group> groups = new ConcurrentHashMap<>();

  private record Group(String version, Map<String, Stored> vectors) {}

  /** A vector and the text it was decoded from: saved again as that text, never re-encoded. */
  private record Stored(float[] vector, String text) {}

  /** What one {@link #vectors} call did. */
  public record Stats(int entries, int reused, int embedded, long embedMs) {}

  public VectorCache(StateStore store, TextEmbedder model) {
    this.store = store;
    this.model = model;
  }

  public TextEmbedder model() {
    return model;
  }

  /**
   * One vector per entry, in order: cached ones read, the others embedded and stored.
   *
   * @param stats receives what was reused and embedded; may be null
   */
  public float[][] vectors(List<DiscoveryEntry> entries, java.util.function.Consumer<Stats> stats) {
    Map<String, List<Integer>> byGroup = new LinkedHashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      byGroup.computeIfAbsent(group(entries.get(i)), g -> new ArrayList<>()).add(i);
    }
    float[][] out = new float[entries.size()][];
    int reused = 0;
    int embedded = 0;
    long started = System.nanoTime();
    for (Map.Entry<String, List<Integer>> g : byGroup.entrySet()) {
      Map<String, Stored> known = load(g.getKey());
      Map<String, Stored> current = new HashMap<>();
      List<Integer> missing = new ArrayList<>();
      for (int i : g.getValue()) {
        if (entries.get(i).meaning().isEmpty()) {
          continue; // nothing to embed: the entry has no vector
        }
        String hash = hash(entries.get(i).meaning());
        Stored v = known.get(hash);
        if (v == null) {
          v = current.get(hash);
        }
        if (v == null) {
          missing.add(i);
        } else {
          out[i] = v.vector();
          current.put(hash, v);
          reused++;
        }
      }
      for (int from = 0; from < missing.size(); from += 64) {
        List<Integer> part = missing.subList(from, Math.min(missing.size(), from + 64));
        float[][] fresh = model.embed(part.stream().map(i -> entries.get(i).meaning()).toList());
        for (int j = 0; j < part.size(); j++) {
          // used as decoded from its stored text, so a restart or another node gets the same floats
          String text = VectorCodec.encode(fresh[j]);
          float[] v = VectorCodec.decode(text, model.dimension());
          out[part.get(j)] = v;
          current.put(hash(entries.get(part.get(j)).meaning()), new Stored(v, text));
        }
        embedded += part.size();
        if (embedded % LOG_EVERY < 64 && embedded >= LOG_EVERY) {
          LOG.info("discovery: embedded {} of {} new texts", embedded, missing.size());
        }
      }
      if (!current.keySet().equals(known.keySet())) {
        save(g.getKey(), current);
      }
    }
    if (stats != null) {
      stats.accept(new Stats(entries.size(), reused, embedded, (System.nanoTime() - started) / 1_000_000));
    }
    return out;
  }

  /** Vectors already cached for {@code entries} (null where none is), without embedding anything. */
  public float[][] cached(List<DiscoveryEntry> entries) {
    float[][] out = new float[entries.size()][];
    for (int i = 0; i < entries.size(); i++) {
      Stored v = entries.get(i).meaning().isEmpty() ? null
          : load(group(entries.get(i))).get(hash(entries.get(i).meaning()));
      out[i] = v == null ? null : v.vector();
    }
    return out;
  }

  static String group(DiscoveryEntry e) {
    return switch (e.kind()) {
      case "wiki" -> "wiki";
      case "sl_source", "sl_measure", "sl_dimension" -> "sl." + e.connectionId();
      default -> "catalog." + e.connectionId();
    };
  }

  private String key(String group) {
    return StateStore.checkKey(group + "." + model.modelId());
  }

  private Map<String, Stored> load(String group) {
    String version = store.version(AREA, key(group)).orElse("");
    Group g = groups.get(group);
    if (g != null && g.version().equals(version)) {
      return g.vectors();
    }
    Map<String, Stored> vectors = new HashMap<>();
    store.get(AREA, key(group)).ifPresent(e -> {
      for (String line : e.text().split("\n")) {
        int space = line.indexOf(' ');
        if (space <= 0) {
          continue;
        }
        try {
          String text = line.substring(space + 1);
          vectors.put(line.substring(0, space), new Stored(VectorCodec.decode(text, model.dimension()), text));
        } catch (IllegalArgumentException bad) {
          // a damaged line only costs its vector: the text is embedded again
          LOG.warn("discovery: skipped a damaged cached vector in {}/{}: {}", AREA, key(group), bad.getMessage());
        }
      }
    });
    groups.put(group, new Group(version, vectors));
    return vectors;
  }

  private void save(String group, Map<String, Stored> vectors) {
    StringBuilder b = new StringBuilder(vectors.size() * 560);
    vectors.forEach((hash, v) -> b.append(hash).append(' ').append(v.text()).append('\n'));
    store.put(AREA, key(group), b.toString());
    groups.put(group, new Group(store.version(AREA, key(group)).orElse(""), vectors));
  }

  /** 128 bits of SHA-256 of the text: collisions are not a concern at catalog sizes. */
  static String hash(String text) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
