package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fused ranking follows one table-or-column decision, the dense lane's. */
class DiscoveryTableOrColumnTest {

  private static final DiscoveryIndex LEXICAL_ONLY = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite",
      "s", "t", 1, List.of(new CatalogTable(new TableRef(null, "main", "patient"), "table", null, 10L, List.of(
          column("patient_id", true), column("dob"), column("family_name"), column("postcode")), List.of())),
      List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());

  /** The query and the date-of-birth column's text close together, the rest further off. */
  private static final TextEmbedder MODEL = new TextEmbedder() {
    @Override
    public String modelId() {
      return "test";
    }

    @Override
    public int dimension() {
      return 2;
    }

    @Override
    public float[][] embed(List<String> texts) {
      return texts.stream().map(t -> {
        float s = t.startsWith("patient birthday") ? 1f : t.startsWith("date of birth") ? 0.85f
            : t.startsWith("patient") ? 0.4f : 0.3f;
        return new float[] {s, (float) Math.sqrt(1 - s * s)};
      }).toArray(float[][]::new);
    }
  };

  @Test
  void aQueryNamingAColumnGetsTheColumnFirstAndItsTableNext() {
    DiscoveryIndex index = LEXICAL_ONLY.withMeaning(
        MODEL.embed(LEXICAL_ONLY.entries().stream().map(DiscoveryEntry::meaning).toList()), MODEL);
    List<String> ids = index.search("patient birthday", "db", Set.of(), 3).stream().map(h -> h.entry().id()).toList();
    assertEquals(List.of("patient.dob", "patient"), ids.subList(0, 2), ids.toString());
  }

  @Test
  void withoutTheModelTheTableComesFirst() {
    assertEquals("patient", LEXICAL_ONLY.search("patient birthday", "db", Set.of(), 3).get(0).entry().id());
  }

  private static CatalogColumn column(String name) {
    return column(name, false);
  }

  private static CatalogColumn column(String name, boolean key) {
    return new CatalogColumn(name, "text", "text", "string", true, key, null, List.of(), 1L);
  }
}
