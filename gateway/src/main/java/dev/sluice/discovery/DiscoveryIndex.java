package dev.sluice.discovery;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.wiki.WikiPage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
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
 * Discovery over tables, columns, wiki pages and the semantic layer: three lanes, each ranking on
 * its own, fused with Reciprocal Rank Fusion at equal weights ({@link Rrf}). Lexical: BM25 over
 * stemmed names, comments, sample values and page text (an in-memory Lucene index). Typo: edit
 * distance and character trigrams over the split names, for the query words the catalog does not
 * contain. Dense: sentence embeddings of each entry's {@link MeaningTexts meaning text}, for
 * questions in other words than the schema's ({@link DenseLane}). Immutable once built; the dense
 * lane is added by {@link #withMeaning} once the vectors exist. Searching a dense index embeds the
 * query: call from a worker thread.
 */
public final class DiscoveryIndex {

  /**
   * Each lane contributes its top N to the fusion. Deeper ranks only add noise to RRF: on the
   * frozen tune set 20 ranked better than 100 (docs/catalog.md).
   */
  static final int LANE_DEPTH = 20;
  /** Entries of one table (or semantic source) in the head of the fused list: see {@link #varied}. */
  static final int PER_GROUP = 2;
  /**
   * A lexical hit scoring under this share of the lane's best is left out of the fusion: it
   * matched on a common word only, and in RRF every ranked entry counts.
   */
  static final double LEXICAL_FLOOR = 0.3;
  /**
   * With the dense lane running, the lexical lane takes part only when at least this share of the
   * query's distinct terms occurs somewhere in the index. Swept 0.3 to 0.9 on the 96 frozen
   * questions: 0.5 and 0.6 rank best (docs/performance.md).
   */
  static final double MIN_KNOWN_SHARE = 0.5;
  /**
   * Lexical hits whose own text shares at least this many of the query's distinct terms rank
   * before the others ({@link #coordinated}).
   */
  static final int COORDINATED = 2;
  /** The fields {@link #COORDINATED} counts in: an entry's own name, its table's, its comment, a page's body. */
  static final Set<String> OWN_FIELDS = Set.of("name", "table", "desc", "body");
  /** How many entries the coordination query looks at; more than the lane keeps after its floor. */
  static final int COORDINATED_DEPTH = 200;
  /** Sample values indexed per column; more would let one wide column match everything. */
  static final int SAMPLES_INDEXED = 50;
  /** Longest query text worked on; the rest of a longer one is ignored. */
  static final int MAX_QUERY_CHARS = 1_000;

  private static final Map<String, Float> LEXICAL_FIELDS = new LinkedHashMap<>();

  static {
    LEXICAL_FIELDS.put("name", 3.0f);
    LEXICAL_FIELDS.put("table", 1.0f);
    LEXICAL_FIELDS.put("desc", 2.0f);
    LEXICAL_FIELDS.put("columns", 0.7f);
    // a literal found among a column's sampled values is rare and telling, but the field is long
    LEXICAL_FIELDS.put("samples", 2.0f);
    LEXICAL_FIELDS.put("body", 1.0f);
    // the dense lane's text, identifiers spelled out ("dob" as "date of birth"): words of it count
    // at half weight, so a question in plain words still meets a terse name
    LEXICAL_FIELDS.put("meaning", 0.5f);
  }

  private final List<DiscoveryEntry> entries;
  private final IndexSearcher searcher;
  private final DenseLane dense;
  private final TextEmbedder queries;
  private final int[] parents;
  /** The words of every entry's name ("order", "items"): what a misspelt query word is corrected to. */
  private final Set<String> nameWords;

  private DiscoveryIndex(List<DiscoveryEntry> entries, IndexSearcher searcher, DenseLane dense, TextEmbedder queries,
      Set<String> nameWords) {
    this.entries = entries;
    this.parents = parents(entries);
    this.nameWords = nameWords;
    this.searcher = searcher;
    this.dense = dense;
    this.queries = queries;
  }

  public int size() {
    return entries.size();
  }

  public List<DiscoveryEntry> entries() {
    return entries;
  }

  /** True when the dense lane is there (the model loaded and the vectors were computed). */
  public boolean hasMeaning() {
    return dense != null;
  }

  /** Entries with a meaning vector. */
  public int embedded() {
    return dense == null ? 0 : dense.embedded();
  }

  /** Indexes every table and column of the snapshots and every wiki page. Blocking (CPU). */
  public static DiscoveryIndex build(List<CatalogSnapshot> snapshots, List<WikiPage> pages) {
    return build(snapshots, pages, Map.of());
  }

  /** @param semantic each connection's semantic layer (sources, measures, dimensions are indexed too) */
  public static DiscoveryIndex build(List<CatalogSnapshot> snapshots, List<WikiPage> pages,
      Map<String, dev.sluice.semantic.SemanticLayer> semantic) {
    return build(DiscoveryEntries.of(snapshots, pages, semantic));
  }

  /** The lexical and typo lanes over {@code entries}. Blocking (CPU). */
  public static DiscoveryIndex build(List<DiscoveryEntry> entries) {
    try {
      ByteBuffersDirectory dir = new ByteBuffersDirectory();
      PerFieldAnalyzerWrapper analyzer = new PerFieldAnalyzerWrapper(Analyzers.LEXICAL,
          Map.of("grams", Analyzers.TRIGRAMS));
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (int i = 0; i < entries.size(); i++) {
          w.addDocument(document(i, entries.get(i)));
        }
      }
      Set<String> words = new java.util.TreeSet<>();
      for (DiscoveryEntry e : entries) {
        for (String w : Identifiers.words(e.name()).split(" ")) {
          if (w.length() > 1 && w.chars().allMatch(Character::isLetter)) {
            words.add(w);
          }
        }
      }
      return new DiscoveryIndex(List.copyOf(entries), new IndexSearcher(DirectoryReader.open(dir)), null, null,
          Set.copyOf(words));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * This index plus the dense lane.
   *
   * @param vectors one per entry, in {@link #entries()} order; null for an entry not embedded yet
   * @param queryEmbedder embeds queries (the same model as the vectors)
   */
  public DiscoveryIndex withMeaning(float[][] vectors, TextEmbedder queryEmbedder) {
    if (vectors.length != entries.size()) {
      throw new IllegalArgumentException(vectors.length + " vectors for " + entries.size() + " entries");
    }
    DenseLane lane = new DenseLane(vectors, queryEmbedder.dimension(), parents, queryEmbedder.scale());
    return new DiscoveryIndex(entries, searcher, lane, queryEmbedder, nameWords);
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
    if (!e.meaning().isEmpty()) {
      d.add(new TextField("meaning", e.meaning(), Field.Store.NO));
    }
    return d;
  }

  /**
   * One ranked result.
   *
   * @param lanes the lanes that ranked it, in {@link Lane} order
   */
  public record Hit(DiscoveryEntry entry, double score, String matchedOn, String summary, String snippet,
      List<Lane> lanes) {}

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
  public List<Hit> search(String query, Collection<String> connections, Set<String> kinds, int limit) {
    return search(query, connections, kinds, limit, EnumSet.allOf(Lane.class));
  }

  /** The search with only {@code lanes} taking part (the benchmark measures each lane alone). */
  public List<Hit> search(String query, Collection<String> connections, Set<String> kinds, int limit,
      Set<Lane> lanes) {
    String raw = query.length() > MAX_QUERY_CHARS ? query.substring(0, MAX_QUERY_CHARS) : query;
    String text = Identifiers.words(raw);
    List<String> lexicalTerms = Analyzers.terms(Analyzers.LEXICAL, "name", text);
    Query filter = filter(connections, kinds);
    try {
      Rrf rrf = new Rrf();
      DenseLane.Ranking meaning = null;
      List<String> unknown = lanes.contains(Lane.TYPO) || lanes.contains(Lane.DENSE) ? unknownWords(text) : List.of();
      if (lanes.contains(Lane.DENSE) && dense != null && !text.isBlank()) {
        float[] q = queries.query(unknown.isEmpty() ? text : spelled(text, unknown));
        meaning = dense.rank(q, ord -> allowed(entries.get(ord), connections, kinds), LANE_DEPTH);
      }
      // with the dense lane there, a question most of whose words the catalog never uses is left
      // to it: the lexical lane would rank on the one common word it knows ("patients"). Unless
      // the dense lane found nothing above its floor: then the one known word is all there is
      if (lanes.contains(Lane.LEXICAL)
          && (meaning == null || meaning.ords().isEmpty() || knownShare(lexicalTerms) >= MIN_KNOWN_SHARE)) {
        // where the model runs, the lanes make one table-or-column decision: the dense lane's
        rrf.add(Lane.LEXICAL, tablesFirst(coordinated(lexicalTerms, filter), connections, kinds,
            meaning == null ? Set.of() : meaning.columnsOverTables()));
      }
      if (lanes.contains(Lane.TYPO)) {
        // a misspelt name points at that one column: no table is lifted above it
        rrf.add(Lane.TYPO, lane(fuzzy(unknown), filter));
      }
      if (meaning != null) {
        rrf.add(Lane.DENSE, meaning.ords());
      }
      Set<String> queryTerms = new HashSet<>(lexicalTerms);
      return varied(rrf.top(Math.max(limit, LANE_DEPTH * 3)), limit).stream()
          .map(f -> hit(entries.get(f.ord()), f.score(), f.lanes(), queryTerms, raw))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The fused list with at most {@link #PER_GROUP} entries of one group (a table with its columns,
   * a semantic-layer source with its measures and dimensions) before every group had its turn:
   * three columns of a table that is not the answer push the answer out of the first five, and a
   * list of one table's columns tells an agent less than a list of tables. The rest follow in
   * their fused order.
   */
  private List<Rrf.Fused> varied(List<Rrf.Fused> fused, int limit) {
    Map<String, Integer> taken = new java.util.HashMap<>();
    List<Rrf.Fused> head = new ArrayList<>();
    List<Rrf.Fused> rest = new ArrayList<>();
    for (Rrf.Fused f : fused) {
      (taken.merge(group(entries.get(f.ord())), 1, Integer::sum) <= PER_GROUP ? head : rest).add(f);
    }
    head.addAll(rest);
    return head.subList(0, Math.min(limit, head.size()));
  }

  private static String group(DiscoveryEntry e) {
    return switch (e.kind()) {
      case "column" -> e.connectionId() + "\u0000" + e.tableRef().display();
      case "sl_measure", "sl_dimension" -> e.connectionId() + "\u0000sl\u0000" + e.id().substring(0, e.id().indexOf('.'));
      case "sl_source" -> e.connectionId() + "\u0000sl\u0000" + e.id();
      default -> e.connectionId() + "\u0000" + e.id();
    };
  }

  /**
   * A lexical ranking where a table comes right before its first-ranked column when it was not
   * ranked above it already: the same rule the dense lane applies by score, so that the lanes
   * agree on tables. Where the dense lane found that the query names one column of a table
   * ({@code columnsOverTables}), the lanes make that one decision: the lexical lane's vote for the
   * table goes to that column first, the table right after it, whether or not the lexical lane
   * ranked the column itself.
   */
  private List<Integer> tablesFirst(List<Integer> ranked, Collection<String> connections, Set<String> kinds,
      Set<Integer> columnsOverTables) {
    Map<Integer, Integer> named = new java.util.HashMap<>();
    for (int c : columnsOverTables) {
      if (allowed(entries.get(c), connections, kinds)) {
        named.put(parents[c], c);
      }
    }
    List<Integer> out = new ArrayList<>(ranked.size() + 8);
    Set<Integer> seen = new HashSet<>();
    for (int ord : ranked) {
      int p = parents[ord];
      if (p >= 0 && !seen.contains(p) && allowed(entries.get(p), connections, kinds)) {
        addTable(p, named, out, seen);
      } else if (p < 0 && named.containsKey(ord) && !seen.contains(ord)) {
        addTable(ord, named, out, seen);
      }
      if (seen.add(ord)) {
        out.add(ord);
      }
    }
    return out.subList(0, Math.min(out.size(), LANE_DEPTH));
  }

  /** A table, preceded by the column of it the query names, if any. */
  private static void addTable(int table, Map<Integer, Integer> named, List<Integer> out, Set<Integer> seen) {
    Integer column = named.get(table);
    if (column != null && seen.add(column)) {
      out.add(column);
    }
    if (seen.add(table)) {
      out.add(table);
    }
  }

  /** For each column entry the ordinal of its table's entry; -1 for the other kinds. */
  static int[] parents(List<DiscoveryEntry> entries) {
    Map<String, Integer> tables = new java.util.HashMap<>();
    for (int i = 0; i < entries.size(); i++) {
      DiscoveryEntry e = entries.get(i);
      if ("table".equals(e.kind())) {
        tables.put(e.connectionId() + "\u0000" + e.id(), i);
      }
    }
    int[] parent = new int[entries.size()];
    for (int i = 0; i < entries.size(); i++) {
      DiscoveryEntry e = entries.get(i);
      parent[i] = "column".equals(e.kind())
          ? tables.getOrDefault(e.connectionId() + "\u0000" + e.tableRef().display(), -1) : -1;
    }
    return parent;
  }

  /** The dense lane's version of {@link #filter}: kinds, and the scope rules of connections. */
  private static boolean allowed(DiscoveryEntry e, Collection<String> connections, Set<String> kinds) {
    if (kinds != null && !kinds.isEmpty() && !kinds.contains(e.kind())) {
      return false;
    }
    if (connections == null || e.scope().isEmpty()) {
      return true;
    }
    // a plain loop: this runs for every entry of every dense search
    for (String c : e.scope()) {
      if (connections.contains(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The query words no lexical field knows and that are not English words ({@link KnownWords}):
   * the typo lane searches only these, so it rescues "custmer" without letting the shared letters
   * of a well-spelled question ("clients", "courier") pull unrelated names up the fused ranking.
   */
  private List<String> unknownWords(String text) throws UncheckedIOException {
    List<String> out = new ArrayList<>();
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
      // an English word is not a misspelling, even when the catalog does not use it
      if (!known && !KnownWords.contains(word)) {
        out.add(word);
      }
    }
    return out;
  }

  /**
   * The query as the model should read it: each misspelt word replaced by the catalog word it
   * most likely meant ({@link Spelling}). The lexical and typo lanes keep the words as typed.
   */
  private String spelled(String text, List<String> unknown) {
    StringBuilder b = new StringBuilder(text.length() + 8);
    for (String word : text.split(" ")) {
      if (!b.isEmpty()) {
        b.append(' ');
      }
      b.append(unknown.contains(word) ? Spelling.corrected(word, nameWords) : word);
    }
    return b.toString();
  }

  /** The share of {@code terms} (distinct) that some lexical field of some entry contains. */
  private double knownShare(List<String> terms) {
    Set<String> distinct = new LinkedHashSet<>(terms);
    if (distinct.isEmpty()) {
      return 0;
    }
    int known = 0;
    try {
      for (String t : distinct) {
        for (String field : LEXICAL_FIELDS.keySet()) {
          if (searcher.getIndexReader().docFreq(new Term(field, t)) > 0) {
            known++;
            break;
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return known / (double) distinct.size();
  }

  /**
   * The lexical ranking with the entries whose own text shares at least {@link #COORDINATED} of
   * the query's distinct terms first, then the rest, each part in BM25 order. BM25 sums per-term
   * scores, so one word rare in the catalog but common in questions ("customers", a table's or a
   * measure's name, weighted x3) outranks an entry that matches two of the question's words; the
   * model's answer then loses the fusion to an entry that matched the question's context, not its
   * subject. Own text is {@link #OWN_FIELDS}: a table's column names, sampled values and meaning
   * text span many attributes, and two words found among twenty columns ("country", "last name"
   * for "revenue per country last month") say no more than one. Nothing is dropped.
   */
  private List<Integer> coordinated(List<String> terms, Query filter) throws IOException {
    List<Integer> any = lane(lexical(terms, 1, LEXICAL_FIELDS.keySet()), filter);
    if (any.isEmpty() || new HashSet<>(terms).size() < COORDINATED) {
      return any;
    }
    Query own = new BooleanQuery.Builder().add(lexical(terms, COORDINATED, OWN_FIELDS), Occur.MUST)
        .add(filter, Occur.FILTER).build();
    Set<Integer> several = new HashSet<>();
    StoredFields stored = searcher.storedFields();
    for (ScoreDoc sd : searcher.search(own, COORDINATED_DEPTH).scoreDocs) {
      several.add(stored.document(sd.doc).getField("ord").numericValue().intValue());
    }
    List<Integer> out = new ArrayList<>(any.size());
    any.stream().filter(several::contains).forEach(out::add);
    any.stream().filter(o -> !several.contains(o)).forEach(out::add);
    return out;
  }

  /** Matches entries that contain at least {@code minTerms} of the distinct terms, in any field. */
  private static Query lexical(List<String> terms, int minTerms, Set<String> fields) {
    Set<String> distinct = new java.util.LinkedHashSet<>(terms);
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String t : distinct) {
      BooleanQuery.Builder anyField = new BooleanQuery.Builder();
      for (Map.Entry<String, Float> f : LEXICAL_FIELDS.entrySet()) {
        if (!fields.contains(f.getKey())) {
          continue;
        }
        anyField.add(new BoostQuery(new TermQuery(new Term(f.getKey(), t)), f.getValue()), Occur.SHOULD);
      }
      b.add(anyField.build(), Occur.SHOULD);
    }
    b.setMinimumNumberShouldMatch(minTerms);
    return b.build();
  }

  /**
   * Per unknown word: names within a small edit distance (transpositions count once, so "emial"
   * finds "email"), or names sharing at least 40% of its trigrams ("custmer" finds "customers").
   */
  private static Query fuzzy(List<String> words) {
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (String word : words) {
      if (word.length() < 4) {
        continue;
      }
      // edits small for the length: two make another word of a short one ("teams", "term")
      int edits = word.length() >= 8 ? 2 : 1;
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

  private static Query filter(Collection<String> connections, Set<String> kinds) {
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
    ScoreDoc[] docs = searcher.search(full, LANE_DEPTH).scoreDocs;
    for (ScoreDoc sd : docs) {
      if (sd.score < LEXICAL_FLOOR * docs[0].score) {
        break;
      }
      ranked.add(stored.document(sd.doc).getField("ord").numericValue().intValue());
    }
    return ranked;
  }

  private static Hit hit(DiscoveryEntry e, double score, Set<Lane> lanes, Set<String> queryTerms, String query) {
    String matchedOn = MatchedOn.of(e, lanes, queryTerms);
    return new Hit(e, score, matchedOn, e.description(), Snippets.of(e, matchedOn, queryTerms, query),
        List.copyOf(lanes));
  }

}
