package dev.sluice.discovery;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Query vectors of recent questions: agents repeat their searches (and a fleet asks the same
 * ones), and a vector costs a few milliseconds of model time. Bounded LRU; thread-safe.
 */
public final class RecentQueries implements TextEmbedder {

  static final int SIZE = 512;

  private final TextEmbedder model;
  private final Map<String, float[]> recent = new LinkedHashMap<>(SIZE, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
      return size() > SIZE;
    }
  };

  public RecentQueries(TextEmbedder model) {
    this.model = model;
  }

  @Override
  public String modelId() {
    return model.modelId();
  }

  @Override
  public int dimension() {
    return model.dimension();
  }

  @Override
  public SimilarityScale scale() {
    return model.scale();
  }

  @Override
  public float[][] embed(List<String> texts) {
    return model.embed(texts);
  }

  @Override
  public float[] query(String text) {
    synchronized (recent) {
      float[] v = recent.get(text);
      if (v != null) {
        return v;
      }
    }
    float[] fresh = model.query(text);
    synchronized (recent) {
      recent.put(text, fresh);
    }
    return fresh;
  }
}
