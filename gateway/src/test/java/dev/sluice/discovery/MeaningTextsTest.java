package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.TableRef;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeaningTextsTest {

  private static final CatalogTable ACCOUNTS = new CatalogTable(new TableRef(null, "main", "accounts"), "table", null,
      10L, List.of(column("account_id", true), column("user_id", false), column("owner_user_id", false)), List.of());

  @Test
  void keysHaveNoTextAndRoleReferencesDo() {
    assertEquals("", MeaningTexts.column(ACCOUNTS, ACCOUNTS.columns().get(0)), "the primary key");
    assertEquals("", MeaningTexts.column(ACCOUNTS, ACCOUNTS.columns().get(1)), "a plain reference: which user");
    assertTrue(MeaningTexts.column(ACCOUNTS, ACCOUNTS.columns().get(2)).startsWith("owner user id of accounts"),
        "a reference named for a role says who is who");
  }

  private static CatalogColumn column(String name, boolean key) {
    return new CatalogColumn(name, "int", "int", "number", true, key, null, List.of(), 1L);
  }
}
