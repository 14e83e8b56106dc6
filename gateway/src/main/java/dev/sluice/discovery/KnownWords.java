package dev.sluice.discovery;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * English words, as far as a misspelling goes: the whole-word entries of the embedding model's
 * WordPiece vocabulary (about 20,000 common words; shipped in the jar even where the model cannot
 * run). A query word found here is a word, not a typo, so the typo lane leaves it alone: the lane
 * exists for "custmer", and "clients" or "courier" matching names by shared letters only pulls
 * unrelated columns into the fusion. Loaded once, on first use (a worker thread).
 */
final class KnownWords {

  private static final Logger LOG = LoggerFactory.getLogger(KnownWords.class);

  private KnownWords() {}

  private static final class Holder {
    static final Set<String> WORDS = load(EmbeddingModel.SHIPPED.tokenizer);
  }

  /** True when {@code word} (any case) is a whole word of the vocabulary. */
  static boolean contains(String word) {
    String w = word.toLowerCase(Locale.ROOT);
    Set<String> words = Holder.WORDS;
    if (words.contains(w)) {
      return true;
    }
    // the vocabulary holds most words in one form only: "depots", "licences" are words too
    return w.endsWith("ies") && words.contains(w.substring(0, w.length() - 3) + "y")
        || w.endsWith("es") && words.contains(w.substring(0, w.length() - 2))
        || w.endsWith("s") && words.contains(w.substring(0, w.length() - 1));
  }

  static Set<String> load(String resource) {
    try (InputStream in = KnownWords.class.getResourceAsStream(resource)) {
      if (in == null) {
        LOG.warn("no tokenizer vocabulary on the class path: the typo lane treats every unindexed word as a typo");
        return Set.of();
      }
      return WordPieceTokenizer.fromTokenizerJson(in).wholeWords();
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("cannot read the tokenizer vocabulary: {}", e.toString());
      return Set.of();
    }
  }
}
