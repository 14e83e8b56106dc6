package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The typo lane answers misspellings of indexed names, and only those. */
class DiscoveryTypoLaneTest {

  private static final DiscoveryIndex INDEX = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite", "s", "t",
      1, List.of(
          table("customers", column("customer_id", true), column("email", false), column("full_name", false)),
          table("invoices", column("invoice_id", true), column("total_cents", false), column("issued_at", false))),
      List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());

  @Test
  void aMisspeltNameIsFound() {
    List<String> ids = typo("custmer emial");
    assertFalse(ids.isEmpty());
    assertTrue(ids.get(0).equals("customers.email"), ids.toString());
  }

  @Test
  void anEnglishWordTheCatalogDoesNotUseIsNotATypo() {
    // "clients" is two edits from "cents": before the gate it pulled total_cents into every fusion
    assertEquals(List.of(), typo("clients"));
    assertEquals(List.of(), typo("which depots hold stock"));
  }

  @Test
  void shortWordsGetNoEditsThatMakeAnotherWord() {
    // "teams" is two edits from "term"; "lot" one from "slot"
    assertEquals(List.of(), typo("tems"), "a four-letter non-word allows one edit: none matches here");
    assertEquals(List.of(), typo("lot"));
  }

  @Test
  void knownWordsCoverPluralsAndNotMisspellings() {
    assertTrue(KnownWords.contains("Customer"));
    assertTrue(KnownWords.contains("depots"));
    assertTrue(KnownWords.contains("companies"));
    assertFalse(KnownWords.contains("custmer"));
    assertFalse(KnownWords.contains("emial"));
  }

  private static List<String> typo(String query) {
    return INDEX.search(query, List.of("db"), Set.of(), 10, EnumSet.of(Lane.TYPO)).stream()
        .map(h -> h.entry().id()).toList();
  }

  private static CatalogTable table(String name, CatalogColumn... columns) {
    return new CatalogTable(new TableRef(null, "main", name), "table", null, 10L, List.of(columns), List.of());
  }

  private static CatalogColumn column(String name, boolean key) {
    return new CatalogColumn(name, "text", "text", "string", true, key, null, List.of(), 1L);
  }
}
