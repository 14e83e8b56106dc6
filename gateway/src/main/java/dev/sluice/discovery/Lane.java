package dev.sluice.discovery;

import java.util.Locale;

/** The ways discovery finds an entry; each ranks on its own and RRF fuses them. */
public enum Lane {
  /** BM25 over stemmed words of names, comments, sampled values and page text. */
  LEXICAL,
  /** Edit distance and character trigrams over names, for query words the catalog does not contain. */
  TYPO,
  /** Cosine similarity of sentence embeddings: finds "salary history" for "what staff earn". */
  DENSE;

  /** The name tools show in {@code lanes}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
