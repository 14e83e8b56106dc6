package dev.sluice.catalog;

import io.vertx.core.json.JsonObject;

/** Where a running scan is, for tools that must say "scan in progress". Event-loop confined. */
public final class ScanProgress {

  private String phase = "tables";
  private int done;
  private int total;
  private final long startedAt = System.currentTimeMillis();

  void phase(String name, int totalItems) {
    phase = name;
    done = 0;
    total = totalItems;
  }

  void advance() {
    done++;
  }

  public JsonObject toJson() {
    return new JsonObject().put("phase", phase).put("done", done).put("total", total)
        .put("elapsedMs", System.currentTimeMillis() - startedAt);
  }

  public String describe() {
    return total > 0 ? phase + " " + done + "/" + total : phase;
  }
}
