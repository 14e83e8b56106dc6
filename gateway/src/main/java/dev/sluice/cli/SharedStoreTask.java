package dev.sluice.cli;

import dev.sluice.config.SluiceConfig;
import dev.sluice.state.StateStore;
import dev.sluice.state.StateStores;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** The frame of a one-off command that publishes files into a cluster's shared state store. */
final class SharedStoreTask {

  interface Work {
    int run(SluiceConfig cfg, StateStore store) throws Exception;
  }

  private SharedStoreTask() {}

  /**
   * Loads {@code configFile} and refuses (exit 2) unless it names a shared store, else opens the
   * store, runs {@code work} and closes everything.
   *
   * @param command for the refusal: "approved push"
   * @param withoutStore what the gateway does instead with the directory store
   */
  static int run(Path configFile, String command, Function<SluiceConfig, String> withoutStore, Work work)
      throws Exception {
    SluiceConfig cfg = Startup.loadOrReport(configFile, null, null);
    if (cfg == null) {
      return SluiceCommand.EXIT_USAGE;
    }
    if (!cfg.state().shared()) {
      System.err.println("sluice: " + command + " is for a shared state store (state.store: postgres); with the "
          + "directory store " + withoutStore.apply(cfg));
      return SluiceCommand.EXIT_USAGE;
    }
    Vertx vertx = Vertx.vertx();
    try (StateStore store = StateStores.open(vertx, cfg.state()).toCompletionStage().toCompletableFuture()
        .get(30, TimeUnit.SECONDS)) {
      return work.run(cfg, store);
    } finally {
      vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
