package dev.sluice.catalog;

/**
 * The event-bus contract of the {@link CatalogVerticle}. Bodies are JsonObjects.
 *
 * <ul>
 *   <li>{@link #SCAN} {@code {connectionId}}: starts a scan (or joins the running one) and replies
 *       when its snapshot is stored: {@code {connectionId, syncId, extractedAt, tables, problems,
 *       scanMs}}. Fails with the scan's error; the previous snapshot then stays in place.
 *   <li>{@link #STATUS} {@code {connectionId}}: {@code {connectionId, scanning: bool, progress?:
 *       {phase, done, total, elapsedMs}, lastError?, lastSyncId?, lastFinishedAt?}}.
 *   <li>{@link #SCANNED}: published on this node when a scan stored a snapshot, with the scan's
 *       summary, so indexes built from snapshots (discovery's embeddings) start their work then
 *       rather than on the next call.
 * </ul>
 *
 * Snapshots themselves never travel on the bus: readers load them from the {@link SnapshotStore},
 * keyed by file identity, so a scan run by {@code sluice scan} in another process is seen too.
 */
public final class CatalogBus {

  public static final String SCAN = "sluice.catalog.scan";
  public static final String STATUS = "sluice.catalog.status";
  public static final String SCANNED = "sluice.catalog.scanned";

  private CatalogBus() {}
}
