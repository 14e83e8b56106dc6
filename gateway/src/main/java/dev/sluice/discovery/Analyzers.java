package dev.sluice.discovery;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.ngram.NGramTokenFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/**
 * The two lanes' analyzers. Lexical: English (stop words, possessives, Porter stemming, so
 * "orders" finds "order"). Fuzzy: character trigrams of each word, so a typo still shares most of
 * its grams with the intended name.
 */
final class Analyzers {

  /**
   * English stop words plus the words questions are made of ("which", "how many", "show me"):
   * they say nothing about which table is meant and would otherwise match every description.
   */
  static final CharArraySet STOP_WORDS = stopWords();

  static final Analyzer LEXICAL = new EnglishAnalyzer(STOP_WORDS);

  static final Analyzer TRIGRAMS = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String field) {
      StandardTokenizer source = new StandardTokenizer();
      TokenStream words = new StopFilter(new LowerCaseFilter(source), STOP_WORDS);
      return new TokenStreamComponents(source, new NGramTokenFilter(words, 3, 3, true));
    }
  };

  private static CharArraySet stopWords() {
    CharArraySet set = new CharArraySet(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET, true);
    set.addAll(List.of("which", "what", "who", "whom", "whose", "where", "when", "how", "many", "much", "show",
        "list", "find", "give", "me", "we", "our", "us", "i", "my", "do", "does", "did", "have", "has", "had",
        "per", "each", "every", "all", "any", "get", "see", "tell", "from", "about", "can", "should", "would",
        "most", "least", "top", "over", "between", "than", "been", "being", "were", "its", "you", "your"));
    return CharArraySet.unmodifiableSet(set);
  }

  private Analyzers() {}

  static List<String> terms(Analyzer analyzer, String field, String text) {
    List<String> out = new ArrayList<>();
    if (text == null || text.isBlank()) {
      return out;
    }
    try (TokenStream ts = analyzer.tokenStream(field, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out;
  }
}
