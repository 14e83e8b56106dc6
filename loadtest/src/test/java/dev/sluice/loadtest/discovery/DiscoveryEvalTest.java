package dev.sluice.loadtest.discovery;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.discovery.OnnxTextEmbedder;
import dev.sluice.discovery.TextEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
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
}
