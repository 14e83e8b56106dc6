package dev.sluice.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Dialect;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GuardCorpusTest {

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void realAnalyticalQueriesAreAccepted(Dialect d) {
    List<GuardCorpus.Entry> corpus = GuardCorpus.accept(d);
    List<String> refused = new ArrayList<>();
    for (GuardCorpus.Entry e : corpus) {
      GuardVerdict v = ReadOnlyGuard.check(d, e.sql());
      if (!v.allowed()) {
        refused.add(v.rule() + ": " + v.message() + "\n    " + e.sql());
      }
    }
    System.out.println(d + ": accepted " + (corpus.size() - refused.size()) + "/" + corpus.size());
    assertTrue(corpus.size() >= 60, "at least 60 benign queries for " + d);
    assertTrue(refused.isEmpty(), "false refusals:\n" + String.join("\n", refused));
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void everyAttackIsRefusedWithItsRule(Dialect d) {
    List<String> wrong = new ArrayList<>();
    for (GuardCorpus.Entry e : GuardCorpus.refuse(d)) {
      GuardVerdict v = ReadOnlyGuard.check(d, e.sql());
      if (v.allowed()) {
        wrong.add("ALLOWED: " + e.sql());
      } else if (!v.rule().equals(e.rule()) || v.message() == null || v.message().isBlank()
          || v.rewrite() == null || v.rewrite().isBlank()) {
        wrong.add("rule " + v.rule() + " (expected " + e.rule() + "): " + v.message() + "\n    " + e.sql());
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void cleanedStatementDropsTrailingSemicolonsAndComments(Dialect d) {
    GuardVerdict v = ReadOnlyGuard.check(d, "  SELECT 1 ;  -- done\n ; ");
    assertTrue(v.allowed(), v.message());
    assertEquals("SELECT 1", v.sql());
    assertFalse(ReadOnlyGuard.check(d, "").allowed());
    assertEquals("empty", ReadOnlyGuard.check(d, "-- nothing").rule());
  }
}
