package dev.sluice.ingest;

import dev.sluice.catalog.CatalogSnapshot;
import java.util.List;

/**
 * Turns ingested markdown into a wiki page plan. The default ({@link VerbatimTriage}) needs no
 * model; a model-backed triage may only add metadata, never rewrite the body.
 */
interface Triage {

  /**
   * @param snapshots catalog snapshots to detect table and column references against (the
   *     connection's own when the run is scoped, else every connection's)
   */
  PagePlan plan(String content, String connectionId, List<CatalogSnapshot> snapshots, IngestRun run);
}
