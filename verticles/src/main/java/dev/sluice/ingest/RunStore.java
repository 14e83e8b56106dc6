package dev.sluice.ingest;

import dev.sluice.state.StateStore;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Runs in the state store, so a run survives its node: {@code <runId>.md} (the content, written
 * once) and {@code <runId>.json} (its state, replaced atomically on every transition). The state
 * entry also carries the run's claim: the node executing it. Blocking.
 */
final class RunStore {

  static final String AREA = "ingest/runs";
  private static final String RUN_ID = "[0-9a-f-]{36}";

  private final StateStore store;

  RunStore(StateStore store) {
    this.store = store;
  }

  /**
   * Content first, then the queued state already claimed by {@code node}: a state entry always has
   * its content, and is never unclaimed (a node dying here leaves a claim that lapses and is taken over).
   */
  void create(IngestRun run, String content, String node, long leaseMs) {
    store.put(AREA, run.runId() + ".md", content);
    store.putClaimed(AREA, run.runId() + ".json", run.toJson().encode(), node, leaseMs);
  }

  void save(IngestRun run) {
    store.put(AREA, run.runId() + ".json", run.toJson().encode());
  }

  Optional<IngestRun> load(String runId) {
    if (!runId.matches(RUN_ID)) {
      return Optional.empty();
    }
    return store.get(AREA, runId + ".json").map(e -> IngestRun.fromJson(new JsonObject(e.text())));
  }

  String content(String runId) {
    return store.get(AREA, runId + ".md").map(StateStore.Entry::text)
        .orElseThrow(() -> new IllegalStateException("the content of run " + runId + " is missing"));
  }

  /** Every stored run. */
  List<IngestRun> all() {
    List<IngestRun> out = new ArrayList<>();
    for (StateStore.Entry e : store.all(AREA)) {
      if (e.key().endsWith(".json") && e.key().substring(0, e.key().length() - 5).matches(RUN_ID)) {
        out.add(IngestRun.fromJson(new JsonObject(e.text())));
      }
    }
    return out;
  }

  /**
   * Removes the runs that finished before {@code cutoff}: state first, then content, so a run is
   * never left without its content. Unfinished runs stay whatever their age.
   *
   * @return how many runs were removed
   */
  int removeFinishedBefore(Instant cutoff) {
    int removed = 0;
    for (IngestRun r : all()) {
      if (r.finished() && r.finishedAt() != null && Instant.parse(r.finishedAt()).isBefore(cutoff)) {
        store.remove(AREA, r.runId() + ".json");
        store.remove(AREA, r.runId() + ".md");
        removed++;
      }
    }
    return removed;
  }

  /** @return true when {@code node} now executes the run (nobody else holds a live claim on it) */
  boolean claim(String runId, String node, long leaseMs) {
    return store.claim(AREA, runId + ".json", node, leaseMs);
  }

  void release(String runId, String node) {
    store.release(AREA, runId + ".json", node);
  }

  void renew(String node, long leaseMs) {
    store.renew(node, leaseMs);
  }

  /** Runs whose executing node stopped renewing its claim: it died. */
  List<String> orphaned() {
    return store.lapsed(AREA).stream().filter(k -> k.endsWith(".json")).map(k -> k.substring(0, k.length() - 5))
        .toList();
  }

  void removeInterruptedWrites() {
    store.removeInterruptedWrites(AREA);
  }

  boolean shared() {
    return store.shared();
  }
}
