package dev.sluice.discovery;

/**
 * A sentence-embedding model as an ONNX file and a WordPiece tokenizer on the class path, with
 * how it turns token vectors into one vector and what it expects before a query or a document.
 * The product ships {@link #SHIPPED}; the others are what it was measured against (DiscoveryBench,
 * docs/performance.md).
 */
public enum EmbeddingModel {

  /** all-MiniLM-L6-v2, int8 (23 MB): mean pooling, no prefixes. */
  MINILM_L6_Q("minilm-l6-v2-q", "/all-minilm-l6-v2-q.onnx", "/all-minilm-l6-v2-q-tokenizer.json", false, "", "",
      SimilarityScale.AS_IS),
  /** all-MiniLM-L6-v2, fp32 (90 MB). */
  MINILM_L6("minilm-l6-v2", "/all-minilm-l6-v2.onnx", "/all-minilm-l6-v2-tokenizer.json", false, "", "",
      SimilarityScale.AS_IS),
  /** intfloat/e5-small-v2, int8 (34 MB): mean pooling, "query: " / "passage: " prefixes. */
  E5_SMALL_Q("e5-small-v2-q", "/e5-small-v2-q.onnx", "/e5-small-v2-q-tokenizer.json", false, "query: ", "passage: ",
      SimilarityScale.AS_IS),
  /**
   * BAAI/bge-small-en-v1.5, int8 (34 MB): the [CLS] vector, an instruction before queries. Its
   * scale was swept on the 189 seen questions (docs/performance.md): shift 0.2 to 0.3 with factor
   * 1.2 to 1.3 rank alike; matching the means and spreads of the two models' cosines (0.45, 2.0)
   * ranked four questions fewer first.
   */
  BGE_SMALL_Q("bge-small-en-v15-q", "/bge-small-en-v1.5-q.onnx", "/bge-small-en-v1.5-q-tokenizer.json", true,
      "Represent this sentence for searching relevant passages: ", "", new SimilarityScale(0.25f, 1.3f));

  /** The model the gateway runs. */
  public static final EmbeddingModel SHIPPED = BGE_SMALL_Q;

  final String id;
  final String onnx;
  final String tokenizer;
  final boolean clsPooling;
  final String queryPrefix;
  final String documentPrefix;
  final SimilarityScale scale;

  EmbeddingModel(String id, String onnx, String tokenizer, boolean clsPooling, String queryPrefix,
      String documentPrefix, SimilarityScale scale) {
    this.scale = scale;
    this.id = id;
    this.onnx = onnx;
    this.tokenizer = tokenizer;
    this.clsPooling = clsPooling;
    this.queryPrefix = queryPrefix;
    this.documentPrefix = documentPrefix;
  }

  public String id() {
    return id;
  }

  /** The model whose id is {@code id}. */
  public static EmbeddingModel byId(String id) {
    for (EmbeddingModel m : values()) {
      if (m.id.equals(id)) {
        return m;
      }
    }
    throw new IllegalArgumentException("no embedding model " + id);
  }
}
