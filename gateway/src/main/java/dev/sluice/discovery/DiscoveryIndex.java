package dev.sluice.discovery;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.wiki.WikiPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.lucene.analysis.miscellaneous.PerFieldAnalyzerWrapper;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.FuzzyQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * One in-memory Lucene index over tables, columns and wiki pages, searched by two lanes fused
 * with Reciprocal Rank Fusion: a lexical lane (BM25 over stemmed names, comments, sample values,
 * page text) and a fuzzy lane for the query words the catalog does not contain (edit distance and
 * character trigrams over the split names, which survive typos and partial words). Immutable once built; built per catalog/wiki identity by the caller.
 */
public final class DiscoveryIndex {

  /** RRF's constant: damps the head so agreement between lanes beats one lane's top rank. */
  static final int RRF_K = 60;
  /**
   * The fuzzy lane counts half: it only ever searches words the lexical lane does not know, and a
   * near-miss spelling is weaker evidence than a word the catalog actually contains.
   */
  static final double FUZZY_WEIGHT = 0.5;
  /** Each lane contributes its top N to the fusion. */
  static final int LANE_DEPTH = 100;
  /** Sample values indexed per column; more would let one wide column match everything. */
  static final int SAMPLES_INDEXED = 50;

  private static final Map<String, Float> LEXICAL_FIELDS = new LinkedHashMap<>();

  static {
    LEXICAL_FIELDS.put("name", 3.0f);
    LEXICAL_FIELDS.put("table", 1.0f);
    LEXICAL_FIELDS.put("desc", 2.0f);
    LEXICAL_FIELDS.put("columns", 0.7f);
    // a literal found among a column's sampled values is rare and telling, but the field is long
    LEXICAL_FIELDS.put("samples", 2.0f);
    LEXICAL_FIELDS.put("body", 1.0f);
  }

  private final List<DiscoveryEntry> entries;
  private final IndexSearcher searcher;

  private DiscoveryIndex(List<DiscoveryEntry> entries, IndexSearcher searcher) {
    this.entries = entries;
    this.searcher = searcher;
  }

  public int size() {
    return entries.size();
  }

  /** Indexes every table and column of the snapshots and every wiki page. Blocking (CPU). */
  public static DiscoveryIndex build(List<CatalogSnapshot> snapshots, List<WikiPage> pages) {
    return build(snapshots, pages, Map.of());
  }

  /** @param semantic each connection's semantic layer (sources, measures, dimensions are indexed too) */
  public static DiscoveryIndex build(List<CatalogSnapshot> snapshots, List<WikiPage> pages,
      Map<String, dev.sluice.semantic.SemanticLayer> semantic) {
    List<DiscoveryEntry> entries = new ArrayList<>();
    semantic.forEach((conn, layer) -> layer.sources().values().forEach(src -> {
      List<String> fields = new ArrayList<>(src.measures().keySet());
      fields.addAll(src.dimensions().keySet());
      entries.add(new DiscoveryEntry("sl_source", src.name(), conn, null, null, src.name() + " " + src.table(), null,
          src.description(), "description", List.of(), null, fields, null, List.of(conn)));
      src.measures().values().forEach(m -> entries.add(new DiscoveryEntry("sl_measure", src.name() + "." + m.name(),
          conn, null, null, m.name(), src.name(), m.description(), "description", List.of(),
          m.expr() != null ? m.agg() + "(" + m.expr() + ")" : m.agg().equals("ratio")
              ? m.numerator() + " / " + m.denominator() : m.agg() + "(" + (m.column() == null ? "*" : m.column()) + ")",
          List.of(), null, List.of(conn))));
      src.dimensions().values().forEach(d -> entries.add(new DiscoveryEntry("sl_dimension", src.name() + "." + d.name(),
          conn, null, null, d.name(), src.name(), d.description(), "description", List.of(),
          d.name() + " (" + d.type() + ")", List.of(), null, List.of(conn))));
    }));
    for (CatalogSnapshot s : snapshots) {
      for (CatalogTable t : s.tables()) {
        List<String> columnNames = t.columns().stream().map(CatalogColumn::name).toList();
        entries.add(new DiscoveryEntry("table", t.ref().display(), s.connectionId(), t.ref(), null,
            t.ref().name(), null, t.comment(), "comment", List.of(), null, columnNames, null,
            List.of(s.connectionId())));
        for (CatalogColumn c : t.columns()) {
          entries.add(new DiscoveryEntry("column", t.ref().display() + "." + c.name(), s.connectionId(), t.ref(),
              c.name(), c.name(), t.ref().name(), c.comment(), "comment", c.sampleValues(), c.nativeType(),
              List.of(), null, List.of(s.connectionId())));
        }
      }
    }
    for (WikiPage p : pages) {
      String name = p.title() + " " + p.key() + " " + String.join(" ", p.tags());
      entries.add(new DiscoveryEntry("wiki", p.key(), null, null, null, name, null,
          p.summary().isEmpty() ? null : p.summary(), "description", List.of(), null, List.of(), p.body(),
          p.connections()));
    }
    try {
      ByteBuffersDirectory dir = new ByteBuffersDirectory();
      PerFieldAnalyzerWrapper analyzer = new PerFieldAnalyzerWrapper(Analyzers.LEXICAL,
          Map.of("grams", Analyzers.TRIGRAMS));
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (int i = 0; i < entries.size(); i++) {
          w.addDocument(document(i, entries.get(i)));
        }
      }
      return new DiscoveryIndex(entries, new IndexSearcher(DirectoryReader.open(dir)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Document document(int ord, DiscoveryEntry e) {
    Document d = new Document();
    d.add(new StoredField("ord", ord));
    d.add(new StringField("kind", e.kind(), Field.Store.NO));
    if (e.scope().isEmpty()) {
      d.add(new StringField("conn", "*", Field.Store.NO));
    }
    e.scope().forEach(c -> d.add(new StringField("conn", c, Field.Store.NO)));
    String name = Identifiers.words(e.name());
    d.add(new TextField("name", name, Field.Store.NO));
    // a column's grams include its table's, so "custmer emial" still lands on customers.email
    d.add(new TextField("grams", e.tableName() == null ? name : Identifiers.words(e.tableName()) + " " + name,
        Field.Store.NO));
    if (e.tableName() != null) {
      d.add(new TextField("table", Identifiers.words(e.tableName()), Field.Store.NO));
    }
    if (e.description() != null) {
      d.add(new TextField("desc", e.description(), Field.Store.NO));
    }
    if (!e.columnNames().isEmpty()) {
      d.add(new TextField("columns", Identifiers.words(String.join(" ", e.columnNames())), Field.Store.NO));
    }
    if (!e.samples().isEmpty()) {
      d.add(new TextField("samples", String.join(" \n ", e.samples().subList(0,
          Math.min(SAMPLES_INDEXED, e.samples().size()))), Field.Store.NO));
    }
    if (e.body() != null) {
      d.add(new TextField("body", e.body(), Field.Store.NO));
    }
    return d;
  }

  /** One ranked result. */
  public record Hit(DiscoveryEntry entry, double score, String matchedOn, String summary, String snippet) {}

  /**
   * @param connectionId limit tables/columns to this connection and wiki pages to unscoped ones
   *     and those scoped to it; null searches everything
   * @param kinds kinds to return; empty means all
   */
  public List<Hit> search(String query, String connectionId, Set<String> kinds, int limit) {
    return search(query, connectionId == null ? null : List.of(connectionId), kinds, limit);
  }

  /**
   * @param connections limit tables/columns to these connections and wiki pages to unscoped ones
   *     and those scoped to one of them; null searches everything
   */
  public List<Hit> search(String query, java.util.Collection<String> connections, Set<String> kinds, int limit) {
    String text = Identifiers.words(query);
    List<String> lexicalTerms = Analyzers.terms(Analyzers.LEXICAL, "name", text);
    String unknown = unknownWords(text);
    Query filter = filter(connections, kinds);
    try {
      Map<Integer, Double> fused = new HashMap<>();
      fuse(fused, lane(lexical(lexicalTerms), filter), 1.0);
      fuse(fused, lane(fuzzy(unknown), filter), FUZZY_WEIGHT);
      double best = (1.0 + FUZZY_WEIGHT) / (RRF_K + 1);
      Set<String> queryTerms = new HashSet<>(lexicalTerms);
      return fused.entrySet().stream()
          .sorted(Map.Entry.<Integer, Double>comparingByValue().reversed()
              .thenComparing(Map.Entry.comparingByKey()))
          .limit(limit)
          .map(en -> hit(entries.get(en.getKey()), Math.min(1.0, en.getValue() / best), queryTerms, query))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The query words no lexical field knows (typos, fragments): the fuzzy lane searches only these,
   * so it rescues "custmer" without letting every shared trigram of a well-spelled question pull
   * unrelated names up the fused ranking.
   */
  private String unknownWords(String text) throws UncheckedIOException {
    StringBuilder out = new StringBuilder();
    for (String word : text.split(" ")) {
      List<String> terms = Analyzers.terms(Analyzers.LEXICAL, "name", word);
      if (terms.isEmpty()) {
        continue;
      }
      boolean known = false;
      try {
        for (String field : LEXICAL_FIELDS.keySet()) {
          known |= searcher.getIndexReader().docFreq(new Term(field, terms.get(0))) > 0;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (!known) {
        out.append(word).append(' ');
      }
    }
    return out.toString().trim();
  }

  private static Query lexical(List<String> terms) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (Map.Entry<String, Float> f : LEXICAL_FIELDS.entrySet()) {
      for (String t : new HashSet<>(terms)) {
        b.add(new BoostQuery(new TermQuery(new Term(f.getKey(), t)), f.getValue()), Occur.SHOULD);
      }
    }
    return b.build();
  }

  /**
   * Per unknown word: names within a small edit distance (transpositions count once, so "emial"
   * finds "email"), or names sharing at least 40% of its trigrams ("custmer" finds "customers").
   */
  private static Query fuzzy(String words) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String word : words.split(" ")) {
      if (word.length() < 3) {
        continue;
      }
      int edits = word.length() >= 5 ? 2 : 1;
      for (String term : Analyzers.terms(Analyzers.LEXICAL, "name", word)) {
        b.add(new FuzzyQuery(new Term("name", term), edits), Occur.SHOULD);
      }
      List<String> grams = new ArrayList<>(new LinkedHashSet<>(Analyzers.terms(Analyzers.TRIGRAMS, "grams", word)));
      if (!grams.isEmpty()) {
        BooleanQuery.Builder g = new BooleanQuery.Builder();
        grams.forEach(x -> g.add(new TermQuery(new Term("grams", x)), Occur.SHOULD));
        g.setMinimumNumberShouldMatch(Math.max(1, (int) Math.ceil(grams.size() * 0.4)));
        b.add(g.build(), Occur.SHOULD);
      }
    }
    return b.build();
  }

  private static Query filter(java.util.Collection<String> connections, Set<String> kinds) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    if (kinds != null && !kinds.isEmpty()) {
      b.add(new TermInSetQuery("kind", kinds.stream().map(BytesRef::new).toList()), Occur.FILTER);
    }
    if (connections != null) {
      List<BytesRef> allowed = new ArrayList<>();
      connections.forEach(c -> allowed.add(new BytesRef(c)));
      allowed.add(new BytesRef("*"));
      b.add(new TermInSetQuery("conn", allowed), Occur.FILTER);
    }
    BooleanQuery q = b.build();
    // a BooleanQuery without clauses matches nothing; no restriction means every document
    return q.clauses().isEmpty() ? new MatchAllDocsQuery() : q;
  }

  private List<Integer> lane(Query q, Query filter) throws IOException {
    if (q instanceof BooleanQuery bq && bq.clauses().isEmpty()) {
      return List.of();
    }
    Query full = new BooleanQuery.Builder().add(q, Occur.MUST).add(filter, Occur.FILTER).build();
    List<Integer> ranked = new ArrayList<>();
    // a StoredFields instance is not thread-safe, and sessions on every event loop search at once
    StoredFields stored = searcher.storedFields();
    for (ScoreDoc sd : searcher.search(full, LANE_DEPTH).scoreDocs) {
      ranked.add(stored.document(sd.doc).getField("ord").numericValue().intValue());
    }
    return ranked;
  }

  private static void fuse(Map<Integer, Double> into, List<Integer> ranked, double weight) {
    for (int r = 0; r < ranked.size(); r++) {
      into.merge(ranked.get(r), weight / (RRF_K + r + 1), Double::sum);
    }
  }

  private static Hit hit(DiscoveryEntry e, double score, Set<String> queryTerms, String query) {
    String matchedOn = matchedOn(e, queryTerms);
    return new Hit(e, score, matchedOn, e.description(), Snippets.of(e, matchedOn, queryTerms, query));
  }

  /** The first stored field, in the order name, description/comment, sample value, body, that shares a term. */
  static String matchedOn(DiscoveryEntry e, Set<String> queryTerms) {
    if (shares(Identifiers.words(e.name()), queryTerms) || shares(Identifiers.words(e.tableName()), queryTerms)
        || shares(Identifiers.words(String.join(" ", e.columnNames())), queryTerms)) {
      return "name";
    }
    if (shares(e.description(), queryTerms)) {
      return e.describedBy();
    }
    for (String s : e.samples()) {
      if (shares(s, queryTerms)) {
        return "sample_value";
      }
    }
    if (shares(e.body(), queryTerms)) {
      return "body";
    }
    return "name";
  }

  static boolean shares(String text, Set<String> queryTerms) {
    if (text == null || text.isBlank()) {
      return false;
    }
    for (String t : Analyzers.terms(Analyzers.LEXICAL, "x", text.toLowerCase(Locale.ROOT))) {
      if (queryTerms.contains(t)) {
        return true;
      }
    }
    return false;
  }
}
