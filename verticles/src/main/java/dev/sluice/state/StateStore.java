package dev.sluice.state;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Shared state as text entries grouped in areas ({@code catalog}, {@code wiki}, {@code ingest/runs}):
 * a directory on one node, a PostgreSQL table for a cluster. Every method blocks, so call it from a
 * worker thread, never an event loop.
 *
 * <p>Claims are leases: a node claims an entry (an ingest run) for {@code leaseMs}, renews its
 * claims while it lives, and releases them when done. A claim that lapsed belongs to a node that
 * stopped renewing, and any node may take it over.
 */
public interface StateStore extends AutoCloseable {

  /** @param version changes whenever the entry is replaced */
  record Entry(String key, String text, String version, Instant updatedAt) {}

  Optional<Entry> get(String area, String key);

  /** The entry's version without reading its text; empty when there is none. */
  Optional<String> version(String area, String key);

  /** Creates or replaces the entry atomically: a reader sees the old text or the new, never a mix. */
  void put(String area, String key, String text);

  /** Creates the entry unless one exists (which is left untouched). @return true when created */
  boolean create(String area, String key, String text);

  /** Removes the entry if there is one. */
  void remove(String area, String key);

  /** Every entry of the area, ordered by key. */
  List<Entry> all(String area);

  /** A token that changes whenever an entry of the area is created, replaced or removed. */
  String areaVersion(String area);

  /** @return true when {@code owner} now holds the entry: it was unclaimed, its own, or lapsed */
  boolean claim(String area, String key, String owner, long leaseMs);

  /**
   * {@link #put} and {@link #claim} in one step: the entry is never visible unclaimed, so a node
   * dying right after writing it leaves a lapsing claim, not an orphan no sweep would find.
   */
  void putClaimed(String area, String key, String text, String owner, long leaseMs);

  /** Extends every claim {@code owner} holds. */
  void renew(String owner, long leaseMs);

  void release(String area, String key, String owner);

  /** Keys of the area whose claim lapsed: their owner stopped renewing. */
  List<String> lapsed(String area);

  /**
   * Removes what interrupted writes left in the area. Only for a process that owns the store alone
   * (the directory store at start); a shared store has nothing to remove.
   */
  default void removeInterruptedWrites(String area) {}

  /** Prepares the store (the postgres store creates its table); asynchronous, safe on an event loop. */
  default io.vertx.core.Future<Void> init() {
    return io.vertx.core.Future.succeededFuture();
  }

  /** True when other nodes share this store (claims then matter). */
  boolean shared();

  @Override
  void close();

  /** Keys are file names in the directory store: no separators, no leading dot. */
  static boolean validKey(String key) {
    return key != null && key.matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,250}") && !key.contains("..");
  }

  static String checkKey(String key) {
    if (!validKey(key)) {
      throw new IllegalArgumentException("not a valid state key: " + key);
    }
    return key;
  }
}
