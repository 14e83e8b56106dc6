package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The lexical lane ranks entries that share two or more of the question's words before those that
 * share one, however rare that one word is in the catalog: a question's context ("customers")
 * must not outrank its subject.
 */
class DiscoveryCoordinationTest {

  private static final DiscoveryIndex INDEX = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite",
      "s", "t", 1, List.of(
          table("customers", null, column("cust_id", true), column("email", false)),
          table("dev_fin", "Handset instalment agreements", column("agr_id", true), column("bal_rem", false)),
          table("plans", "Price plans", column("plan_cd", true), column("plan_nm", false)),
          table("topup", "Prepaid balance recharges", column("topup_id", true), column("face_val", false))),
      List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());

  @Test
  void anEntrySharingTwoWordsOfTheQuestionComesBeforeOneNamedForOne() {
    List<DiscoveryIndex.Hit> hits = INDEX.search("customers handset instalments", "db", Set.of(), 10);
    assertEquals("dev_fin", hits.get(0).entry().id(), hits.toString());
    // the single-word match is kept, after it
    assertTrue(hits.stream().anyMatch(h -> h.entry().id().equals("customers")));
  }

  @Test
  void aOneWordQuestionRanksAsBefore() {
    assertEquals("customers", INDEX.search("customers", "db", Set.of(), 10).get(0).entry().id());
  }

  private static CatalogTable table(String name, String comment, CatalogColumn... columns) {
    return new CatalogTable(new TableRef(null, "main", name), "table", comment, 10L, List.of(columns), List.of());
  }

  private static CatalogColumn column(String name, boolean key) {
    return new CatalogColumn(name, "text", "text", "string", true, key, null, List.of(), 1L);
  }
}
