package dev.sluice.cli;

import dev.sluice.approved.ApprovedCatalog;
import dev.sluice.approved.ApprovedQueries;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice approved push}: publishes {@code approved_queries_dir} to the shared state store,
 * whole and checked, so every node of a cluster serves the same approved queries (each node picks
 * them up within two seconds). The store then holds exactly the pushed files.
 */
@Command(name = "approved", mixinStandardHelpOptions = true, description = "Approved queries in a cluster.",
    subcommands = {ApprovedCommand.Push.class})
final class ApprovedCommand extends CommandGroup {

  @Command(name = "push", mixinStandardHelpOptions = true,
      description = "Check every definition in approved_queries_dir, then make the shared state store hold "
          + "exactly those (state.store: postgres); every node reloads them.")
  static final class Push implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: built-in defaults)")
    Path config;

    @Override
    public Integer call() throws Exception {
      return SharedStoreTask.run(config, "approved push", cfg -> "the gateway reads " + cfg.approvedDir() + " itself",
          Push::push);
    }

    private static int push(SluiceConfig cfg, StateStore store) {
      Map<String, String> files = new TreeMap<>();
      new DirectoryStateStore(cfg.approvedDir()).all("").stream()
          .filter(e -> e.key().endsWith(".sql")).forEach(e -> files.put(e.key(), e.text()));
      Set<String> ids = new LinkedHashSet<>(cfg.connections().stream().map(ConnectionConfig::id).toList());
      try {
        ApprovedQueries.load(files, ids); // all or nothing: a bad file stops the push
      } catch (IllegalArgumentException e) {
        System.err.println("sluice: nothing pushed: " + e.getMessage());
        return 1;
      }
      // new and changed files first, stale ones after: a node reloading meanwhile never loses a query
      files.forEach((name, text) -> store.put(ApprovedCatalog.SHARED_AREA, name, text));
      int removed = 0;
      for (StateStore.Entry old : store.all(ApprovedCatalog.SHARED_AREA)) {
        if (!files.containsKey(old.key())) {
          store.remove(ApprovedCatalog.SHARED_AREA, old.key());
          removed++;
        }
      }
      System.out.println("pushed " + files.size() + " approved queries from " + cfg.approvedDir() + " ("
          + removed + " removed); every node reloads them within 2 s");
      return 0;
    }
  }
}
