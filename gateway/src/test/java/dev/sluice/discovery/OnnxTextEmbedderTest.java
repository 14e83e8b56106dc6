package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-JVM model against the reference: the expected components come from langchain4j's
 * AllMiniLmL6V2QuantizedEmbeddingModel (DJL tokenizer, same ONNX file) on the same sentences.
 */
class OnnxTextEmbedderTest {

  private static TextEmbedder embedder;

  @BeforeAll
  static void load() {
    embedder = OnnxTextEmbedder.load(1).orElseThrow(() -> new AssertionError("ONNX Runtime must load on Linux"));
  }

  @AfterAll
  static void close() {
    ((OnnxTextEmbedder) embedder).close();
  }

  @Test
  void vectorsMatchTheReferenceImplementation() {
    float[][] v = embedder.embed(List.of("how much do employees earn per year", "money we returned to customers and why"));
    assertEquals(384, v[0].length);
    assertArrayEquals(new float[] {0.03710172f, -0.02779646f, 0.028499458f, -0.031362228f, -0.016902762f},
        new float[] {v[0][0], v[0][1], v[0][2], v[0][100], v[0][383]}, 2e-4f);
    assertArrayEquals(new float[] {-0.048022725f, 0.053851973f, 0.046906006f, 0.072578125f, -0.015588271f},
        new float[] {v[1][0], v[1][1], v[1][2], v[1][100], v[1][383]}, 2e-4f);
  }

  @Test
  void aTextGetsTheSameVectorWhateverItIsEmbeddedWith() {
    float[] alone = embedder.embed(List.of("refunds paid to customers"))[0];
    float[] inBatch = embedder.embed(List.of("a much longer text embedded in the same call, which must not change the "
        + "vector of its neighbour", "refunds paid to customers"))[1];
    assertArrayEquals(alone, inBatch);
  }

  @Test
  void closingWhileAnotherThreadEmbedsWaitsForItsRunAndRefusesTheNext() throws Exception {
    OnnxTextEmbedder own = (OnnxTextEmbedder) OnnxTextEmbedder.load(1).orElseThrow();
    java.util.concurrent.atomic.AtomicReference<Throwable> ended = new java.util.concurrent.atomic.AtomicReference<>();
    Thread worker = new Thread(() -> {
      try {
        for (int i = 0; i < 10_000; i++) {
          own.embed(List.of("text number " + i + " about refunds, invoices and warehouses"));
        }
      } catch (Throwable t) {
        ended.set(t);
      }
    });
    worker.start();
    Thread.sleep(200);
    own.close();
    worker.join(30_000);
    assertTrue(ended.get() instanceof IllegalStateException, String.valueOf(ended.get()));
  }

  @Test
  void closerMeaningsScoreHigher() {
    float[][] v = embedder.embed(List.of("how much do employees earn per year",
        "salary history: annual base pay per employee", "warehouse capacity in cubic metres"));
    float related = Vectors.dot(v[0], v[1], 0);
    float unrelated = Vectors.dot(v[0], v[2], 0);
    assertTrue(related > unrelated + 0.2, related + " vs " + unrelated);
    assertEquals(1.0, Vectors.dot(v[0], v[0], 0), 1e-5);
  }
}
