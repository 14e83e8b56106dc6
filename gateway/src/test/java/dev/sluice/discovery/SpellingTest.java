package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Misspelt query words corrected to the catalog's words before the model reads them. */
class SpellingTest {

  private static final Set<String> CATALOG = Set.of("customer", "customers", "email", "average", "invoice",
      "order", "orders", "items", "city");

  @Test
  void aWordOneOrTwoEditsFromACatalogWordBecomesIt() {
    assertEquals("customer", Spelling.corrected("custmer", CATALOG));
    assertEquals("email", Spelling.corrected("emial", CATALOG), "a transposition is one edit");
    assertEquals("average", Spelling.corrected("avrage", CATALOG));
    assertEquals("invoice", Spelling.corrected("invoise", CATALOG));
  }

  @Test
  void shortWordsAndFarWordsStayAsTyped() {
    assertEquals("cty", Spelling.corrected("cty", CATALOG), "under 4 letters nothing is corrected");
    assertEquals("lorry", Spelling.corrected("lorry", CATALOG));
    assertEquals("emails", Spelling.corrected("emails", Set.of()), "nothing to correct to");
    assertEquals("orders", Spelling.corrected("ordres", CATALOG), "one swap");
    assertEquals("itmesx", Spelling.corrected("itmesx", CATALOG), "two edits are too many for 6 letters");
  }

  @Test
  void tiesGoToTheAlphabeticallyFirstWhateverTheSetsOrder() {
    // "ordes" is one edit from both "order" and "orders"
    for (int i = 0; i < 5; i++) {
      assertEquals("order", Spelling.corrected("ordes", Set.copyOf(List.of("orders", "order", "city"))));
      assertEquals("order", Spelling.corrected("ordes", new java.util.LinkedHashSet<>(List.of("orders", "order"))));
    }
  }

  @Test
  void distanceCountsInsertionsDeletionsSubstitutionsAndSwaps() {
    assertEquals(0, Spelling.distance("email", "email", 2));
    assertEquals(1, Spelling.distance("emial", "email", 2));
    assertEquals(1, Spelling.distance("emal", "email", 2));
    assertEquals(1, Spelling.distance("emaill", "email", 2));
    assertEquals(1, Spelling.distance("enail", "email", 2));
    assertEquals(2, Spelling.distance("custmr", "customer", 2));
    assertEquals(3, Spelling.distance("cstmr", "customer", 2), "more than max reads as max + 1");
  }
}
