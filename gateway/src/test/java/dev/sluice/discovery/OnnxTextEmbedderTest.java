package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The in-JVM model against a reference: the expected values come from transformers.js 3
 * (@huggingface/transformers on the npm registry: its own tokenizer, [CLS] pooling, normalised)
 * running the same ONNX file and tokenizer.json on the same sentences, the query with bge's
 * instruction in front. The two ONNX Runtimes (1.20 here, onnxruntime-node there) do not always
 * round the int8 model's activations alike: most sentences agree to 1e-7, some only to a cosine
 * of 0.998, which is why two are compared whole, by cosine.
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
    assertArrayEquals(new float[] {0.028001489f, -0.025331181f, -0.008074346f, -0.006850770f, 0.034123942f},
        new float[] {v[0][0], v[0][1], v[0][2], v[0][100], v[0][383]}, 2e-4f);
    assertEquals(1.0, Vectors.dot(v[1], reference("bge-reference-document.txt"), 0), 0.004,
        "\"money we returned to customers and why\" against the reference, whole");
    float[] refunds = embedder.embed(List.of("refunds"))[0];
    assertArrayEquals(new float[] {-0.052057274f, -0.029298205f, 0.048747655f, -0.001017206f, -0.020425050f},
        new float[] {refunds[0], refunds[1], refunds[2], refunds[100], refunds[383]}, 2e-4f);
    assertEquals(1.0, Vectors.dot(embedder.query("how much do employees earn per year"),
        reference("bge-reference-query.txt"), 0), 0.002, "the query, with the instruction in front");
  }

  private static float[] reference(String name) {
    try (java.io.InputStream in = OnnxTextEmbedderTest.class.getResourceAsStream("/discovery/" + name)) {
      List<String> lines = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
          .filter(l -> !l.startsWith("#") && !l.isBlank()).toList();
      float[] v = new float[lines.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = Float.parseFloat(lines.get(i));
      }
      return v;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
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
