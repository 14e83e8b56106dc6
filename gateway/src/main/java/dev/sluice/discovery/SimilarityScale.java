package dev.sluice.discovery;

/**
 * Where a model's cosines sit. The dense lane's floors and margins ({@link DenseLane}) read a
 * similarity on one scale, all-MiniLM-L6-v2's, where unrelated short texts score about 0 to 0.2
 * and a good match 0.5 to 0.7; another model's cosine {@code c} is read as
 * {@code (c - shift) * factor}. bge-small-en-v1.5 puts everything higher and closer together
 * (unrelated texts about 0.45 to 0.6, a good match about 0.7 to 0.8).
 */
record SimilarityScale(float shift, float factor) {

  /** The scale the lane's rules were written on. */
  static final SimilarityScale AS_IS = new SimilarityScale(0, 1);

  float read(float cosine) {
    return (cosine - shift) * factor;
  }
}
