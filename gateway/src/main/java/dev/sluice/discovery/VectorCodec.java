package dev.sluice.discovery;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * A unit vector as one line of text: its largest component's magnitude, then every component as
 * a signed byte of that scale, base64. 388 bytes instead of 1,536 for 384 floats; the cosine of a
 * decoded vector with the original stays above 0.9999, far below what changes a ranking. Every
 * vector the dense lane uses is decoded from its stored text, fresh or cached, so a restart or
 * another node ranks exactly alike.
 */
final class VectorCodec {

  private VectorCodec() {}

  static String encode(float[] v) {
    byte[] out = new byte[4 + v.length];
    float scale = quantize(v, out, 4);
    ByteBuffer.wrap(out).putFloat(0, scale * 127);
    return Base64.getEncoder().withoutPadding().encodeToString(out);
  }

  /**
   * Writes {@code v} as signed bytes into {@code into} at {@code offset}, the largest component's
   * magnitude as 127.
   *
   * @return the factor that turns a byte back into the component
   */
  static float quantize(float[] v, byte[] into, int offset) {
    float max = 0;
    for (float x : v) {
      max = Math.max(max, Math.abs(x));
    }
    for (int i = 0; i < v.length; i++) {
      into[offset + i] = max == 0 ? 0 : (byte) Math.round(v[i] / max * 127);
    }
    return max / 127;
  }

  /** @throws IllegalArgumentException when the text is not a vector of {@code dimension} components */
  static float[] decode(String text, int dimension) {
    byte[] bytes = Base64.getDecoder().decode(text);
    if (bytes.length != 4 + dimension) {
      throw new IllegalArgumentException("a stored vector has " + (bytes.length - 4) + " components, not " + dimension);
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    float scale = b.getFloat() / 127;
    float[] v = new float[dimension];
    for (int i = 0; i < dimension; i++) {
      v[i] = b.get() * scale;
    }
    return Vectors.normalized(v);
  }

  /** What the dense lane will use for {@code v}: encoded and decoded once. */
  static float[] roundTrip(float[] v) {
    return decode(encode(v), v.length);
  }
}
