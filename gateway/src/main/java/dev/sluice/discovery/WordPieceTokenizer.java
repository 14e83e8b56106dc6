package dev.sluice.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * BERT's uncased WordPiece tokenizer, as the sentence-embedding model's {@code tokenizer.json}
 * declares it (BertNormalizer with lower-casing and accent stripping, BertPreTokenizer, WordPiece
 * with {@code ##} continuations, {@code [CLS] ... [SEP]}). Written here rather than taken from DJL's
 * HuggingFaceTokenizer: that one loads a native Rust library (extracted into the user's home) and
 * contacts the EC2 metadata address on first use, and this one is 150 lines of plain Java whose
 * output {@code WordPieceTokenizerTest} checks against the reference tokenizer's ids.
 */
final class WordPieceTokenizer {

  private static final String CONTINUATION = "##";
  private static final int MAX_WORD_CHARS = 100;

  private final Map<String, Integer> vocab;
  private final int cls;
  private final int sep;
  private final int unk;

  WordPieceTokenizer(Map<String, Integer> vocab) {
    this.vocab = Map.copyOf(vocab);
    this.cls = this.vocab.get("[CLS]");
    this.sep = this.vocab.get("[SEP]");
    this.unk = this.vocab.get("[UNK]");
  }

  /** Reads the WordPiece vocabulary of a Hugging Face {@code tokenizer.json}. */
  static WordPieceTokenizer fromTokenizerJson(InputStream in) {
    try {
      JsonNode model = new ObjectMapper().readTree(in).path("model");
      if (!"WordPiece".equals(model.path("type").asText())) {
        throw new IllegalArgumentException("not a WordPiece tokenizer: " + model.path("type").asText());
      }
      Map<String, Integer> vocab = new HashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = model.path("vocab").fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        vocab.put(e.getKey(), e.getValue().asInt());
      }
      return new WordPieceTokenizer(vocab);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the tokenizer vocabulary", e);
    }
  }

  /**
   * The vocabulary's whole words: no word pieces ({@code ##ing}), no specials ({@code [CLS]}), no
   * single letters (what {@link KnownWords} counts as English).
   */
  Set<String> wholeWords() {
    Set<String> words = new HashSet<>();
    for (String w : vocab.keySet()) {
      if (w.length() > 1 && w.chars().allMatch(Character::isLetter)) {
        words.add(w);
      }
    }
    return Set.copyOf(words);
  }

  /**
   * Token ids of {@code text} framed by [CLS] and [SEP], at most {@code maxTokens} in all (the
   * text's tail is cut, as the model's own truncation does).
   */
  int[] encode(String text, int maxTokens) {
    List<Integer> ids = new ArrayList<>();
    ids.add(cls);
    for (String word : preTokenize(normalize(text))) {
      if (ids.size() >= maxTokens - 1) {
        break;
      }
      wordPieces(word, ids);
    }
    List<Integer> cut = ids.size() > maxTokens - 1 ? ids.subList(0, maxTokens - 1) : ids;
    int[] out = new int[cut.size() + 1];
    for (int i = 0; i < cut.size(); i++) {
      out[i] = cut.get(i);
    }
    out[out.length - 1] = sep;
    return out;
  }

  /** BertNormalizer: drop control characters, space out CJK ideographs, lower-case, strip accents. */
  static String normalize(String text) {
    StringBuilder b = new StringBuilder(text.length());
    text.codePoints().forEach(cp -> {
      if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
        return;
      }
      if (isWhitespace(cp)) {
        b.append(' ');
      } else if (isCjk(cp)) {
        b.append(' ').appendCodePoint(cp).append(' ');
      } else {
        b.appendCodePoint(cp);
      }
    });
    String lower = b.toString().toLowerCase(Locale.ROOT);
    String decomposed = Normalizer.normalize(lower, Normalizer.Form.NFD);
    StringBuilder out = new StringBuilder(decomposed.length());
    decomposed.codePoints().forEach(cp -> {
      if (Character.getType(cp) != Character.NON_SPACING_MARK) {
        out.appendCodePoint(cp);
      }
    });
    return out.toString();
  }

  /** BertPreTokenizer: split on whitespace, and every punctuation character is a word of its own. */
  static List<String> preTokenize(String text) {
    List<String> words = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    text.codePoints().forEach(cp -> {
      if (isWhitespace(cp)) {
        flush(cur, words);
      } else if (isPunctuation(cp)) {
        flush(cur, words);
        words.add(new String(Character.toChars(cp)));
      } else {
        cur.appendCodePoint(cp);
      }
    });
    flush(cur, words);
    return words;
  }

  private static void flush(StringBuilder cur, List<String> words) {
    if (cur.length() > 0) {
      words.add(cur.toString());
      cur.setLength(0);
    }
  }

  /** Greedy longest-match-first; a word with no full cover becomes one [UNK]. */
  private void wordPieces(String word, List<Integer> out) {
    if (word.codePointCount(0, word.length()) > MAX_WORD_CHARS) {
      out.add(unk);
      return;
    }
    List<Integer> pieces = new ArrayList<>();
    int start = 0;
    while (start < word.length()) {
      int end = word.length();
      Integer found = null;
      while (start < end) {
        String piece = (start > 0 ? CONTINUATION : "") + word.substring(start, end);
        found = vocab.get(piece);
        if (found != null) {
          break;
        }
        end = Character.isLowSurrogate(word.charAt(end - 1)) && end - 2 > start ? end - 2 : end - 1;
      }
      if (found == null) {
        out.add(unk);
        return;
      }
      pieces.add(found);
      start = end;
    }
    out.addAll(pieces);
  }

  private static boolean isWhitespace(int cp) {
    return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || Character.getType(cp) == Character.SPACE_SEPARATOR;
  }

  private static boolean isControl(int cp) {
    if (cp == '\t' || cp == '\n' || cp == '\r') {
      return false;
    }
    int type = Character.getType(cp);
    return type == Character.CONTROL || type == Character.FORMAT || type == Character.PRIVATE_USE
        || type == Character.SURROGATE || type == Character.UNASSIGNED;
  }

  private static boolean isPunctuation(int cp) {
    if (cp >= 33 && cp <= 47 || cp >= 58 && cp <= 64 || cp >= 91 && cp <= 96 || cp >= 123 && cp <= 126) {
      return true;
    }
    int type = Character.getType(cp);
    return type == Character.CONNECTOR_PUNCTUATION || type == Character.DASH_PUNCTUATION
        || type == Character.START_PUNCTUATION || type == Character.END_PUNCTUATION
        || type == Character.INITIAL_QUOTE_PUNCTUATION || type == Character.FINAL_QUOTE_PUNCTUATION
        || type == Character.OTHER_PUNCTUATION;
  }

  private static boolean isCjk(int cp) {
    return cp >= 0x4E00 && cp <= 0x9FFF || cp >= 0x3400 && cp <= 0x4DBF || cp >= 0x20000 && cp <= 0x2A6DF
        || cp >= 0x2A700 && cp <= 0x2B73F || cp >= 0x2B740 && cp <= 0x2B81F || cp >= 0x2B820 && cp <= 0x2CEAF
        || cp >= 0xF900 && cp <= 0xFAFF || cp >= 0x2F800 && cp <= 0x2FA1F;
  }
}
