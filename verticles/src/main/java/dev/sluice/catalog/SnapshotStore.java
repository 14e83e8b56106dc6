package dev.sluice.catalog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Catalog snapshots in the state store, one entry per connection ({@code catalog/<connectionId>.json}).
 * A new snapshot replaces the old atomically, so a reader sees the old one or the new, never a torn
 * one. Blocking: call from a worker thread.
 */
public final class SnapshotStore {

  static final String AREA = "catalog";
  private static final ObjectMapper JSON = new ObjectMapper()
      .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  private final StateStore store;

  public SnapshotStore(StateStore store) {
    this.store = store;
  }

  /** The single-node store in {@code stateDir}. */
  public SnapshotStore(Path stateDir) {
    this(new DirectoryStateStore(stateDir));
  }

  /** Connection ids are validated to [A-Za-z0-9_-] at config load, so this is always a valid key. */
  private static String key(String connectionId) {
    return connectionId + ".json";
  }

  public void write(CatalogSnapshot snapshot) {
    try {
      store.put(AREA, key(snapshot.connectionId()), JSON.writeValueAsString(snapshot));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("cannot write the catalog snapshot of " + snapshot.connectionId(), e);
    }
  }

  /** The stored snapshot with the version it was read at; empty when none was written. */
  public Optional<Stored> read(String connectionId) {
    Optional<StateStore.Entry> e = store.get(AREA, key(connectionId));
    if (e.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new Stored(JSON.readValue(e.get().text(), CatalogSnapshot.class), e.get().version()));
    } catch (JsonProcessingException ex) {
      throw new UncheckedIOException("cannot read the catalog snapshot of " + connectionId, ex);
    }
  }

  /** Cheap check for "has a new snapshot been written?". */
  public Optional<String> version(String connectionId) {
    return store.version(AREA, key(connectionId));
  }

  /** True when other nodes read and write the same snapshots. */
  public boolean shared() {
    return store.shared();
  }

  public record Stored(CatalogSnapshot snapshot, String version) {}
}
