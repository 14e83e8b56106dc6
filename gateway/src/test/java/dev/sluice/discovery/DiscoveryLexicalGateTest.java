package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * With the dense lane there, the lexical lane stays out of a question most of whose words the
 * catalog never uses, unless the dense lane found nothing; without it, the lexical lane answers
 * whatever it can.
 */
class DiscoveryLexicalGateTest {

  private static final DiscoveryIndex LEXICAL_ONLY = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite",
      "s", "t", 1, List.of(
          table("patient", column("patient_id", true), column("family_name", false)),
          table("rx", column("rx_id", true), column("drug_code", false))),
      List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());

  /** Every text the same vector: the dense lane ranks everything alike, which is all this test needs. */
  private static final TextEmbedder FLAT = fixed("flat", new float[] {1, 0});

  /** Every text one vector, every query {@code query}. */
  private static TextEmbedder fixed(String id, float[] query) {
    return new TextEmbedder() {
      @Override
      public String modelId() {
        return id;
      }

      @Override
      public int dimension() {
        return 2;
      }

      @Override
      public float[][] embed(List<String> texts) {
        return texts.stream().map(t -> new float[] {1, 0}).toArray(float[][]::new);
      }

      @Override
      public float[] query(String text) {
        return query;
      }
    };
  }

  private static final DiscoveryIndex WITH_DENSE = LEXICAL_ONLY.withMeaning(
      FLAT.embed(LEXICAL_ONLY.entries().stream().map(DiscoveryEntry::meaning).toList()), FLAT);

  @Test
  void aQuestionTheCatalogKnowsOneWordOfIsLeftToTheDenseLane() {
    // medicines, prescribed: unknown; patients: known (1 of 3)
    assertTrue(WITH_DENSE.search("medicines prescribed to patients", "db", Set.of(), 10).stream()
        .noneMatch(h -> h.lanes().contains(Lane.LEXICAL)));
  }

  @Test
  void whenTheDenseLaneFindsNothingTheOneKnownWordStillAnswers() {
    // the model finds nothing above its floor for the question: deferring to it would be no answer
    TextEmbedder blind = fixed("blind", new float[] {0, 1});
    DiscoveryIndex index = LEXICAL_ONLY.withMeaning(
        blind.embed(LEXICAL_ONLY.entries().stream().map(DiscoveryEntry::meaning).toList()), blind);
    List<DiscoveryIndex.Hit> hits = index.search("medicines prescribed to patients", "db", Set.of(), 10);
    assertFalse(hits.isEmpty());
    assertTrue(hits.get(0).entry().id().startsWith("patient"), hits.get(0).entry().id());
    assertTrue(hits.stream().allMatch(h -> h.lanes().equals(List.of(Lane.LEXICAL))));
  }

  @Test
  void aQuestionInTheCatalogsWordsStillMatchesLexically() {
    assertTrue(WITH_DENSE.search("patient family name", "db", Set.of(), 10).stream()
        .anyMatch(h -> h.lanes().contains(Lane.LEXICAL)));
  }

  @Test
  void withoutTheModelTheLexicalLaneAlwaysAnswers() {
    assertFalse(LEXICAL_ONLY.search("medicines prescribed to patients", "db", Set.of(), 10).isEmpty());
  }

  private static CatalogTable table(String name, CatalogColumn... columns) {
    return new CatalogTable(new TableRef(null, "main", name), "table", null, 10L, List.of(columns), List.of());
  }

  private static CatalogColumn column(String name, boolean key) {
    return new CatalogColumn(name, "text", "text", "string", true, key, null, List.of(), 1L);
  }
}
