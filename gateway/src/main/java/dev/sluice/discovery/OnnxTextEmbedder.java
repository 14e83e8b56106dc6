package dev.sluice.discovery;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.LongBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sentence-embedding model ({@link EmbeddingModel}; the gateway runs bge-small-en-v1.5
 * quantized to int8, 34 MB, 384 dimensions) in this JVM through ONNX Runtime: WordPiece tokens
 * in, one vector out (the [CLS] token's, or the token vectors averaged over the real tokens, as
 * the model was trained) scaled to unit length. The model file ships in the jar (a Maven Central
 * artifact); nothing is downloaded. Thread-safe: one ORT session serves
 * concurrent callers.
 */
public final class OnnxTextEmbedder implements TextEmbedder, AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(OnnxTextEmbedder.class);

  static final String TOKENIZER = EmbeddingModel.SHIPPED.tokenizer;
  /** The model's own truncation (tokenizer.json); catalog texts are written to fit well under it. */
  static final int MAX_TOKENS = 128;
  private final EmbeddingModel spec;
  private final int dimension;
  private final OrtEnvironment env;
  private final OrtSession session;
  private final WordPieceTokenizer tokenizer;
  private final boolean typeIds;
  /**
   * Runs hold the read side, close the write side: closing the session while a run is inside
   * ONNX Runtime frees memory the run still uses (a native crash, seen when a gateway stopped in
   * the middle of a background embedding job).
   */
  private final java.util.concurrent.locks.ReadWriteLock lifecycle = new java.util.concurrent.locks.ReentrantReadWriteLock();
  private boolean closed;

  private OnnxTextEmbedder(EmbeddingModel spec, OrtEnvironment env, OrtSession session, WordPieceTokenizer tokenizer) {
    this.spec = spec;
    this.env = env;
    this.session = session;
    this.tokenizer = tokenizer;
    this.typeIds = session.getInputNames().contains("token_type_ids");
    this.dimension = embedOne("dimension probe").length;
  }

  /**
   * Loads the model, or empty when this platform has no ONNX Runtime native library in the jar
   * (the jar keeps Linux x86-64 and aarch64 only): discovery then runs its lexical lanes alone.
   *
   * @param threads ONNX Runtime intra-op threads; embedding competes with serving for the cores
   */
  public static Optional<TextEmbedder> load(int threads) {
    return load(EmbeddingModel.SHIPPED, threads);
  }

  /** Another model (the benchmark compares them); empty when its files or ONNX Runtime are missing. */
  public static Optional<TextEmbedder> load(EmbeddingModel spec, int threads) {
    try (InputStream model = OnnxTextEmbedder.class.getResourceAsStream(spec.onnx);
         InputStream vocab = OnnxTextEmbedder.class.getResourceAsStream(spec.tokenizer)) {
      if (model == null || vocab == null) {
        LOG.warn("the sentence-embedding model is not on the class path; discovery runs without its dense lane");
        return Optional.empty();
      }
      WordPieceTokenizer tokenizer = WordPieceTokenizer.fromTokenizerJson(vocab);
      byte[] bytes = model.readAllBytes();
      OrtEnvironment env = OrtEnvironment.getEnvironment();
      OrtSession.SessionOptions options = new OrtSession.SessionOptions();
      options.setIntraOpNumThreads(Math.max(1, threads));
      options.setInterOpNumThreads(1);
      options.setOptimizationLevel(OrtSession.SessionOptions.OptLevel.ALL_OPT);
      return Optional.of(new OnnxTextEmbedder(spec, env, env.createSession(bytes, options), tokenizer));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (OrtException | UnsatisfiedLinkError | NoClassDefFoundError e) {
      // another OS or CPU than the natives shipped: degrade, never refuse to start
      LOG.warn("ONNX Runtime is not available on {} {} ({}); discovery runs without its dense lane",
          System.getProperty("os.name"), System.getProperty("os.arch"), e.toString());
      return Optional.empty();
    }
  }

  @Override
  public String modelId() {
    return spec.id + ".t" + MAX_TOKENS;
  }

  @Override
  public SimilarityScale scale() {
    return spec.scale;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public float[] query(String text) {
    return embedOne(spec.queryPrefix + text);
  }

  /**
   * One text per model run. The quantized model scales activations over the whole input tensor,
   * so padding a short text into a batch with a long one changes its vector (cosine 0.99 instead
   * of 1.0 against the reference): one at a time, a text always gets the same vector, which is what
   * a cache keyed by content hash needs.
   */
  @Override
  public float[][] embed(List<String> texts) {
    float[][] vectors = new float[texts.size()][];
    for (int i = 0; i < vectors.length; i++) {
      vectors[i] = embedOne(spec.documentPrefix + texts.get(i));
    }
    return vectors;
  }

  private float[] embedOne(String text) {
    lifecycle.readLock().lock();
    try {
      if (closed) {
        throw new IllegalStateException("the embedding model is closed");
      }
      return run(text);
    } finally {
      lifecycle.readLock().unlock();
    }
  }

  private float[] run(String text) {
    int[] tokens = tokenizer.encode(text, MAX_TOKENS);
    long[] ids = new long[tokens.length];
    long[] mask = new long[tokens.length];
    for (int j = 0; j < tokens.length; j++) {
      ids[j] = tokens[j];
      mask[j] = 1;
    }
    long[] shape = {1, tokens.length};
    try (OnnxTensor idT = OnnxTensor.createTensor(env, LongBuffer.wrap(ids), shape);
         OnnxTensor maskT = OnnxTensor.createTensor(env, LongBuffer.wrap(mask), shape);
         OnnxTensor typeT = OnnxTensor.createTensor(env, LongBuffer.wrap(new long[ids.length]), shape);
         OrtSession.Result out = session.run(typeIds
             ? Map.of("input_ids", idT, "attention_mask", maskT, "token_type_ids", typeT)
             : Map.of("input_ids", idT, "attention_mask", maskT))) {
      float[][][] hidden = (float[][][]) out.get(0).getValue();
      return spec.clsPooling ? Vectors.normalized(hidden[0][0].clone()) : meanPooled(hidden[0], tokens.length);
    } catch (OrtException e) {
      throw new IllegalStateException("embedding failed: " + e.getMessage(), e);
    }
  }

  /** The average of the first {@code n} token vectors (the rest is padding), scaled to length 1. */
  static float[] meanPooled(float[][] tokenVectors, int n) {
    float[] v = new float[tokenVectors[0].length];
    for (int t = 0; t < n; t++) {
      for (int d = 0; d < v.length; d++) {
        v[d] += tokenVectors[t][d];
      }
    }
    return Vectors.normalized(v);
  }

  @Override
  public void close() {
    lifecycle.writeLock().lock();
    try {
      if (!closed) {
        closed = true;
        session.close();
      }
    } catch (OrtException e) {
      LOG.debug("closing the embedding session: {}", e.getMessage());
    } finally {
      lifecycle.writeLock().unlock();
    }
  }
}
