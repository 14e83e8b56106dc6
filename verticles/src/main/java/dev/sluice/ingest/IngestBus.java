package dev.sluice.ingest;

/**
 * The event-bus contract of the {@link IngestVerticle}. Bodies are JsonObjects.
 *
 * <ul>
 *   <li>{@link #SUBMIT} {@code {content, connectionId?, source, sessionId?, notifyAddress?,
 *       principal?}} →
 *       {@code {runId, status:"queued"}} once the run and its content are on disk. Fails with
 *       {@code invalid_argument} (a {@code reason}: empty, too_large, not_text, unsafe_key,
 *       no_key) or {@code busy} (queue full, with {@code retryAfterMs}); nothing is written then.
 *   <li>{@link #STATUS} {@code {runId, principal?}} → the run: {@code {runId, status: queued|running|completed|
 *       failed, connectionId, source, createdAt, startedAt?, finishedAt?, pages: [{key, action}],
 *       warnings: [], error?: {type, message}}}; unknown ids, and runs another principal started,
 *       fail with {@code not_found} (without {@code principal} every run is visible).
 * </ul>
 *
 * {@link #CHANGED} is published on this node, with the finished run, when a run wrote a wiki page
 * or a semantic-layer source (discovery then indexes and embeds it).
 *
 * While a run goes, the verticle sends {@code {sessionId, level, logger, data}} to the run's
 * {@code notifyAddress}, which the session shard turns into notifications/message.
 */
public final class IngestBus {

  public static final String SUBMIT = "sluice.ingest.submit";
  public static final String STATUS = "sluice.ingest.status";
  public static final String CHANGED = "sluice.ingest.changed";

  private IngestBus() {}
}
