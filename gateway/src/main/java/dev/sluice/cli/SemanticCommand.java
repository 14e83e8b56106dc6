package dev.sluice.cli;

import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.SluiceConfig;
import dev.sluice.semantic.SemanticLayer;
import dev.sluice.semantic.SemanticLayers;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice semantic push}: publishes the semantic-layer source files of this machine's
 * {@code <state.dir>/semantic/<connectionId>/} to the shared state store, so every node of a
 * cluster serves the same layer. Sources ingested through memory_ingest live in the same areas
 * and are kept: a push adds and replaces, it never removes.
 */
@Command(name = "semantic", mixinStandardHelpOptions = true, description = "The semantic layer in a cluster.",
    subcommands = {SemanticCommand.Push.class})
final class SemanticCommand extends CommandGroup {

  @Command(name = "push", mixinStandardHelpOptions = true,
      description = "Check the source files under <state.dir>/semantic/<connectionId>/, then write them to the "
          + "shared state store (state.store: postgres); every node serves them on its next call.")
  static final class Push implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "YAML configuration (default: built-in defaults)")
    Path config;

    @Override
    public Integer call() throws Exception {
      return SharedStoreTask.run(config, "semantic push",
          cfg -> "each gateway reads " + cfg.stateDir().resolve("semantic") + " itself", Push::push);
    }

    private static int push(SluiceConfig cfg, StateStore store) {
      DirectoryStateStore local = new DirectoryStateStore(cfg.stateDir());
      Map<String, Map<String, String>> byConnection = new LinkedHashMap<>();
      boolean broken = false;
      for (ConnectionConfig c : cfg.connections()) {
        Map<String, String> files = new TreeMap<>();
        local.all(SemanticLayers.area(c.id())).stream()
            .filter(e -> e.key().endsWith(".yaml") || e.key().endsWith(".yml"))
            .forEach(e -> files.put(e.key(), e.text()));
        // shape only: columns are checked by each node against its catalog snapshot
        for (String problem : SemanticLayer.load(files, null).problems()) {
          boolean disabled = problem.endsWith("(source disabled)");
          broken |= disabled;
          System.err.println("sluice: " + c.id() + ": " + problem + (disabled ? "" : " (a warning)"));
        }
        byConnection.put(c.id(), files);
      }
      if (broken) {
        System.err.println("sluice: nothing pushed: fix the sources above");
        return 1;
      }
      int pushed = 0;
      for (Map.Entry<String, Map<String, String>> e : byConnection.entrySet()) {
        for (Map.Entry<String, String> file : e.getValue().entrySet()) {
          store.put(SemanticLayers.area(e.getKey()), file.getKey(), file.getValue());
          pushed++;
        }
      }
      List<String> ids = byConnection.keySet().stream().toList();
      System.out.println("pushed " + pushed + " semantic sources for " + ids + " from "
          + cfg.stateDir().resolve("semantic") + "; every node serves them on its next call");
      return 0;
    }
  }
}
