package dev.sluice.config;

/**
 * memory_ingest runs.
 *
 * @param maxQueue runs waiting to start; beyond it memory_ingest answers {@code busy}
 * @param concurrency runs executing at once
 * @param maxContentBytes the largest content accepted (UTF-8 bytes)
 * @param model the optional model-backed triage; null means the deterministic one only
 * @param keepRunsMs how long a finished run stays answerable by memory_ingest_status before a
 *     sweep removes it (its page stays); 0 keeps runs forever
 */
public record IngestConfig(int maxQueue, int concurrency, int maxContentBytes, Model model, long keepRunsMs) {

  /**
   * An OpenAI-compatible chat completions endpoint that may derive a page's summary and tags.
   *
   * @param url base URL; {@code /chat/completions} is appended
   * @param apiKey bearer key, null for none (never logged)
   */
  public record Model(String url, String apiKey, String model, long timeoutMs) {
    @Override
    public String toString() {
      return "Model[url=" + url + ", apiKey=" + (apiKey == null ? "none" : "***") + ", model=" + model
          + ", timeoutMs=" + timeoutMs + "]";
    }
  }

  public static final long DEFAULT_MODEL_TIMEOUT_MS = 20_000;

  public IngestConfig(int maxQueue, int concurrency, int maxContentBytes) {
    this(maxQueue, concurrency, maxContentBytes, null, DEFAULT_KEEP_RUNS_MS);
  }

  public IngestConfig(int maxQueue, int concurrency, int maxContentBytes, Model model) {
    this(maxQueue, concurrency, maxContentBytes, model, DEFAULT_KEEP_RUNS_MS);
  }

  public static final int DEFAULT_MAX_QUEUE = 1_000;
  public static final int DEFAULT_CONCURRENCY = 2;
  public static final int DEFAULT_MAX_CONTENT_BYTES = 256 * 1024;
  /** A week: long enough for any agent to come back for its run, short enough that runs don't pile up. */
  public static final long DEFAULT_KEEP_RUNS_MS = 7L * 24 * 3600 * 1000;

  public static IngestConfig defaults() {
    return new IngestConfig(DEFAULT_MAX_QUEUE, DEFAULT_CONCURRENCY, DEFAULT_MAX_CONTENT_BYTES);
  }
}
