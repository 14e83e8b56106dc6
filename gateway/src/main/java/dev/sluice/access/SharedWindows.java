package dev.sluice.access;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Map;

/**
 * Cluster-wide counters for rate-limit windows: one Hazelcast map entry per principal, limit and
 * window, updated atomically on the member that owns its partition (an entry processor, so two
 * nodes adding at once never lose an update). Entries expire on their own a while after their
 * window closed (the map's time-to-live, set in the cluster configuration), so nothing accumulates.
 */
public final class SharedWindows {

  /** The map's name; its time-to-live outlasts the longest window (an hour). */
  public static final String MAP = "sluice.rate-windows";
  public static final int TTL_SECONDS = 2 * 3600;

  private final IMap<String, Long> map;
  private final Vertx vertx;

  public SharedWindows(HazelcastInstance hz, Vertx vertx) {
    this.map = hz.getMap(MAP);
    this.vertx = vertx;
  }

  /** Adds {@code delta} to the counter (0 reads it); completes with the new value. */
  public Future<Long> add(String key, long delta) {
    return Future.fromCompletionStage(map.submitToKey(key, new Add(delta)), vertx.getOrCreateContext());
  }

  /** Serializable, so it runs on whichever member owns the key. */
  static final class Add implements EntryProcessor<String, Long, Long> {
    private static final long serialVersionUID = 1L;
    private final long delta;

    Add(long delta) {
      this.delta = delta;
    }

    @Override
    public Long process(Map.Entry<String, Long> entry) {
      long next = (entry.getValue() == null ? 0 : entry.getValue()) + delta;
      if (delta != 0) {
        entry.setValue(next);
      }
      return next;
    }
  }
}
