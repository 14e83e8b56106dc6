package dev.sluice.discovery;

import java.util.List;

/**
 * Turns texts into unit-length vectors whose dot product says how close their meanings are.
 * Blocking and CPU-heavy: call from a worker thread, never an event loop.
 */
public interface TextEmbedder {

  /** Names the model and its text preparation: vectors cached under another id are never mixed in. */
  String modelId();

  int dimension();

  /** One vector per document text, in order, each of length {@link #dimension()} and L2 norm 1. */
  float[][] embed(List<String> texts);

  /** How this model's cosines are read by the dense lane's rules. */
  default SimilarityScale scale() {
    return SimilarityScale.AS_IS;
  }

  /** The vector of a search query (some models expect queries phrased apart from documents). */
  default float[] query(String text) {
    return embed(List.of(text))[0];
  }
}
