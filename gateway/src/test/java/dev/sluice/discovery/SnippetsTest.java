package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sluice.catalog.TableRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Snippets of refs found by meaning alone. */
class SnippetsTest {

  private static DiscoveryEntry table(String comment) {
    return new DiscoveryEntry("table", "payroll", "hr", new TableRef(null, "main", "payroll"), null, "payroll", null,
        comment, "comment", List.of(), null, List.of("emp_id", "salary", "ssn"), null, List.of("hr"), "payroll");
  }

  @Test
  void aTableFoundByMeaningShowsItsCommentNeverItsColumnNames() {
    // a table policy may hide columns (ssn); the tool re-filters the column list only for matchedOn "name"
    assertEquals("What staff are paid", Snippets.of(table("What staff are paid"), MatchedOn.MEANING, Set.of(), "earn"));
    assertNull(Snippets.of(table(null), MatchedOn.MEANING, Set.of(), "earn"));
    assertEquals("emp_id, salary, ssn", Snippets.of(table(null), "name", Set.of("payroll"), "payroll"));
  }
}
