package dev.sluice.sql.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.sql.Dialect;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.Refusal;
import dev.sluice.testing.Analysis;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The read guard over the analysis, on the corpora: no false refusal, every attack refused by its rule. */
class GuardCorpusTest {

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void realAnalyticalQueriesAreAccepted(Dialect d) {
    List<GuardCorpus.Entry> corpus = GuardCorpus.accept(d);
    List<String> refused = new ArrayList<>();
    for (GuardCorpus.Entry e : corpus) {
      Refusal r = ReadGuard.check(Analysis.of(d, e.sql()));
      if (r != null) {
        refused.add(r.rule() + ": " + r.message() + "\n    " + e.sql());
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
      Refusal r = ReadGuard.check(Analysis.of(d, e.sql()));
      if (r == null) {
        wrong.add("ALLOWED: " + e.sql());
      } else if (!r.rule().equals(e.rule()) || r.message() == null || r.message().isBlank()
          || r.rewrite() == null || r.rewrite().isBlank()) {
        wrong.add("rule " + r.rule() + " (expected " + e.rule() + "): " + r.message() + "\n    " + e.sql());
      }
    }
    assertTrue(wrong.isEmpty(), String.join("\n", wrong));
  }

  @ParameterizedTest
  @EnumSource(Dialect.class)
  void theStatementSentDropsTrailingSemicolonsAndComments(Dialect d) {
    AnalysedStatement a = Analysis.of(d, "  SELECT 1 ;  -- done\n ; ");
    assertNull(ReadGuard.check(a));
    assertEquals("SELECT 1", a.text());
    assertNotNull(ReadGuard.check(Analysis.of(d, "")));
    assertEquals("empty", ReadGuard.check(Analysis.of(d, "-- nothing")).rule());
  }
}
