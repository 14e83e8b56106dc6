package dev.sluice.loadtest.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.discovery.DiscoveryEntries;
import dev.sluice.discovery.DiscoveryEntry;

import dev.sluice.discovery.OnnxTextEmbedder;
import dev.sluice.discovery.TextEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The frozen tune set as a regression floor: the figures DiscoveryBench printed when the ranking
 * was last changed (docs/performance.md), less a margin for an unlucky tie. It does not run the
 * held-out set: that one is read only by the bench, when ranking work is done.
 */
class DiscoveryEvalTest {

  @Test
  void fusedRankingStaysAtItsMeasuredLevelAndBeatsTheLexicalLanesAlone() throws Exception {
    TextEmbedder model = OnnxTextEmbedder.load(1).orElseThrow();
    Path dir = Files.createTempDirectory("sluice-eval");
    Map<String, RetrievalScore> scores = DiscoveryBench.quality("questions-tune.tsv", model, dir);
    DiscoveryBench.report("tune", scores, true);
    RetrievalScore fused = scores.get("fused");
    assertTrue(fused.questions() >= 60, "the tune set has at least 60 questions");
    assertTrue(fused.recallAt5() >= 0.85, fused.line("fused"));
    assertTrue(fused.recallAt1() >= 0.53, fused.line("fused"));
    assertTrue(fused.mrr() > scores.get("lex+typo").mrr() + 0.15, "the dense lane must pay its way: "
        + fused.line("fused") + " vs " + scores.get("lex+typo").line("lex+typo"));
  }

  /**
   * Every answer of every frozen file names an entry its catalog really has: a misspelt answer
   * would score a miss that no ranking could fix. Checks names only, never ranks.
   */
  @Test
  void everyAnswerNamesAnEntryOfItsCatalog() {
    Map<String, Set<String>> refs = new HashMap<>();
    List<String> unknown = new ArrayList<>();
    int questions = 0;
    List<String> files = new ArrayList<>(List.of("questions-tune.tsv"));
    DiscoveryBench.OPTIONAL_SETS.forEach(set -> files.add("questions-" + set + ".tsv"));
    for (String file : files) {
      for (EvalQuestion q : EvalQuestion.load(file)) {
        questions++;
        Set<String> known = refs.computeIfAbsent(q.connection(), conn -> {
          EvalCatalog c = EvalCatalog.load(conn);
          List<DiscoveryEntry> entries = DiscoveryEntries.of(List.of(c.snapshot()), c.pages(), Map.of(conn, c.layer()));
          return entries.stream().map(e -> EvalQuestion.refOf(e.kind(), e.id())).collect(Collectors.toSet());
        });
        q.answers().stream().filter(a -> !known.contains(a)).forEach(a -> unknown.add(file + ": " + q.text() + " -> " + a));
      }
    }
    assertTrue(questions >= 96 + 93 + 91 + 90 + 90 + 90, "questions: " + questions);
    assertEquals(List.of(), unknown);
  }
}
