package dev.sluice.discovery;

/** Small vector arithmetic for the dense lane. */
final class Vectors {

  private Vectors() {}

  /** {@code v} scaled in place to length 1 (a zero vector stays zero). */
  static float[] normalized(float[] v) {
    double sum = 0;
    for (float x : v) {
      sum += x * x;
    }
    if (sum > 0) {
      float inv = (float) (1.0 / Math.sqrt(sum));
      for (int i = 0; i < v.length; i++) {
        v[i] *= inv;
      }
    }
    return v;
  }

  /** Dot product of {@code q} with row {@code row} of a row-major matrix of {@code q.length} columns. */
  static float dot(float[] q, float[] matrix, int row) {
    int base = row * q.length;
    float s = 0;
    for (int i = 0; i < q.length; i++) {
      s += q[i] * matrix[base + i];
    }
    return s;
  }
}
