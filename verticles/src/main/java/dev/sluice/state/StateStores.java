package dev.sluice.state;

import dev.sluice.config.StateConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/** Builds the store the configuration names. */
public final class StateStores {

  private StateStores() {}

  /** The store, not yet initialized: call {@link StateStore#init()} before the first blocking call. */
  public static StateStore create(Vertx vertx, StateConfig config) {
    return config.shared() ? new PgStateStore(vertx, config.postgresUrl(), config.postgresTable())
        : new DirectoryStateStore(config.dir());
  }

  /** The store, ready. */
  public static Future<StateStore> open(Vertx vertx, StateConfig config) {
    StateStore store = create(vertx, config);
    return store.init().map(v -> store).onFailure(err -> store.close());
  }
}
