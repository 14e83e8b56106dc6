package dev.sluice.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableResolverTest {

  private static CatalogTable table(String catalog, String db, String name) {
    return new CatalogTable(new TableRef(catalog, db, name), "table", null, null, List.of(), List.of());
  }

  private static final CatalogSnapshot SNAPSHOT = new CatalogSnapshot("wh", "postgres", "s1",
      "2026-11-23T00:00:00Z", 1, List.of(
          table("shop", "sales", "orders"),
          table("shop", "archive", "orders"),
          table("shop", "sales", "Customers"),
          table("shop", "sales", "customers"),
          table("shop", "sales", "payments")),
      List.of(), new ProfileInfo(10, 5, 0, "2026-11-23T00:00:00Z"));

  @Test
  void theSameNameInTwoSchemasIsAmbiguousWithBothCandidates() {
    SqlError e = assertThrows(SqlError.class, () -> TableResolver.resolve(SNAPSHOT, "orders"));
    assertEquals("ambiguous_name", e.type().wireName());
    JsonArray candidates = e.details().getJsonArray("candidates");
    assertEquals(2, candidates.size());
    assertEquals(new JsonObject().put("catalog", "shop").put("db", "sales").put("name", "orders")
        .put("display", "sales.orders"), candidates.getJsonObject(0));
    assertEquals("archive", candidates.getJsonObject(1).getString("db"));
  }

  @Test
  void qualificationPicksOneAndAnExactCaseMatchWinsOverAFoldedOne() {
    assertEquals("archive", TableResolver.resolve(SNAPSHOT, "archive.orders").ref().db());
    assertEquals("archive", TableResolver.resolve(SNAPSHOT, "shop.archive.orders").ref().db());
    assertEquals("sales", TableResolver.resolve(SNAPSHOT,
        new JsonObject().put("catalog", null).put("db", "SALES").put("name", "orders")).ref().db());
    assertEquals("Customers", TableResolver.resolve(SNAPSHOT, "Customers").ref().name());
    assertEquals("customers", TableResolver.resolve(SNAPSHOT, "customers").ref().name());
    SqlError folded = assertThrows(SqlError.class, () -> TableResolver.resolve(SNAPSHOT, "CUSTOMERS"));
    assertEquals("ambiguous_name", folded.type().wireName());
    assertEquals("payments", TableResolver.resolve(SNAPSHOT, "\"PAYMENTS\"").ref().name());
  }

  @Test
  void aMissingTableSuggestsNearNamesAndABadNameIsAnArgumentError() {
    SqlError e = assertThrows(SqlError.class, () -> TableResolver.resolve(SNAPSHOT, "sales.paymnts"));
    assertEquals("table_not_found", e.type().wireName());
    assertEquals(new JsonArray().add("payments"), e.details().getJsonArray("suggestions"));
    assertEquals("invalid_argument",
        assertThrows(SqlError.class, () -> TableResolver.resolve(SNAPSHOT, "a..b")).type().wireName());
    assertEquals("invalid_argument",
        assertThrows(SqlError.class, () -> TableResolver.resolve(SNAPSHOT, "a.b.c.d")).type().wireName());
  }
}
