package dev.sluice.ingest;

import java.util.List;
import java.util.Map;

/**
 * What a run will write: the page key, its frontmatter (in order) and the verbatim body.
 *
 * @param warnings things the triage noticed but did not fail on
 */
record PagePlan(String key, Map<String, Object> frontmatter, String body, String bodySha256,
    List<String> connections, List<String> warnings) {}
