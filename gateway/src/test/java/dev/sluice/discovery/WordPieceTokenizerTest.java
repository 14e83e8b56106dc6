package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Token ids against the reference: each expected array was produced by the Hugging Face
 * tokenizers library (Rust, through DJL 0.36, padding off) from the same tokenizer.json.
 */
class WordPieceTokenizerTest {

  private static WordPieceTokenizer tokenizer;

  @BeforeAll
  static void load() throws Exception {
    try (InputStream in = WordPieceTokenizerTest.class.getResourceAsStream(OnnxTextEmbedder.TOKENIZER)) {
      tokenizer = WordPieceTokenizer.fromTokenizerJson(in);
    }
  }

  @Test
  void plainQuestion() {
    assertArrayEquals(new int[] {101, 2129, 2172, 2079, 5126, 7796, 2566, 2095, 102},
        tokenizer.encode("how much do employees earn per year", 128));
  }

  @Test
  void identifiersPunctuationAndSubwords() {
    assertArrayEquals(new int[] {101, 17850, 1012, 10300, 1035, 2381, 1024, 3296, 1035, 2918, 1010, 3477, 1035, 3694,
        1517, 7977, 2918, 2566, 28907, 1999, 16351, 2361, 102},
        tokenizer.encode("hr.salary_history: annual_base, pay_grade — Gross base per annum in GBP", 128));
  }

  @Test
  void accentsAreStrippedAndNumbersSplit() {
    assertArrayEquals(new int[] {101, 7668, 2139, 3900, 24728, 1010, 15743, 8508, 999, 1006, 1015, 1010, 22018, 1012,
        5179, 1007, 1041, 1011, 5653, 1024, 1060, 1030, 1061, 1012, 4012, 102},
        tokenizer.encode("Café déjà vu, naïve façade! (1,234.56) e-mail: x@y.com", 128));
  }

  @Test
  void upperCaseCjkAndUnknownCharacters() {
    assertArrayEquals(new int[] {101, 11919, 3620, 1997, 2686, 1999, 2169, 8470, 1029, 102},
        tokenizer.encode("CUBIC metres of space in each depot?", 128));
    assertArrayEquals(new int[] {101, 14477, 20961, 3468, 1060, 8516, 7361, 8747, 2923, 1005, 1055, 3424, 10521, 4355,
        7875, 13602, 3672, 12199, 2964, 1879, 1755, 7861, 29147, 2072, 100, 7929, 102},
        tokenizer.encode("unaffable xylophonist's antidisestablishmentarianism 東京 emoji 😀 ok", 128));
  }

  @Test
  void longTextIsCutToTheLimitAndStillEndsWithSep() {
    int[] ids = tokenizer.encode("word ".repeat(500), 16);
    assertEquals(16, ids.length);
    assertEquals(101, ids[0]);
    assertEquals(102, ids[15]);
  }
}
