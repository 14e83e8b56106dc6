package dev.sluice.cli;

import dev.sluice.config.ConfigException;
import dev.sluice.config.ConfigLoader;
import dev.sluice.setup.AgentClients;
import dev.sluice.setup.AgentSetup;
import dev.sluice.setup.GatewayAddress;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice setup-agents}: registers this gateway with MCP clients and installs the research
 * guide; {@code --remove} takes it all out again. Only our {@code sluice} entry is ever added,
 * replaced or removed; the rest of each file, its mode and its symlinks stay (see
 * {@link dev.sluice.setup.UserFiles}). Host, port and whether a token is needed come from the
 * gateway's own config. A token is only ever written as a reference to {@code SLUICE_TOKEN}.
 */
@Command(name = "setup-agents", mixinStandardHelpOptions = true,
    description = "Register this gateway with Claude Code, Cursor, VS Code, Gemini CLI, Windsurf and Claude Desktop "
        + "(and print Codex and opencode snippets), and install the research guide. --dry-run shows every change "
        + "first; --remove undoes them.")
final class SetupAgentsCommand implements Callable<Integer> {

  @Option(names = "--target", split = ",", paramLabel = "CLIENT",
      description = "claude-code, cursor, vscode, gemini, windsurf, claude-desktop, codex, opencode or all (default: "
          + "all, which edits only the clients found installed)")
  List<String> targets = List.of("all");

  @Option(names = "--scope", paramLabel = "user|project", description = "user (your home) or project (default: user)")
  String scope = "user";

  @Option(names = "--project-dir", paramLabel = "DIR", description = "project root for --scope project (default: .)")
  Path projectDir = Path.of(".");

  @Option(names = "--config", paramLabel = "FILE",
      description = "the gateway's config: host, port and token settings come from it (default: the defaults and "
          + "SLUICE_SERVER_* variables); Claude Desktop's command line passes it on")
  Path config;

  @Option(names = "--url", paramLabel = "URL", description = "the gateway's MCP URL (default: from the config)")
  String url;

  @Option(names = "--with-token", description = "add Authorization: Bearer ${SLUICE_TOKEN} (also when SLUICE_TOKEN is "
      + "set or the config has a token or principals)")
  boolean withToken;

  @Option(names = "--skip-shared-token", description = "with a token and --scope project: do not write the shared files")
  boolean skipSharedToken;

  @Option(names = "--remove", description = "take out the entries and guides setup-agents added, restoring any entry "
      + "it replaced")
  boolean remove;

  @Option(names = "--dry-run", description = "print what would change, write nothing")
  boolean dryRun;

  @Option(names = "--home", hidden = true, description = "home directory (default: $HOME)")
  Path home;

  private PrintStream out = System.out;
  private Map<String, String> env = System.getenv();

  @Override
  public Integer call() throws Exception {
    boolean project = scope.equals("project");
    if (!project && !scope.equals("user")) {
      System.err.println("sluice: --scope is user or project, got \"" + scope + "\"");
      return SluiceCommand.EXIT_USAGE;
    }
    for (String t : targets) {
      if (!t.equals("all") && !AgentClients.all().contains(t)) {
        System.err.println("sluice: unknown --target \"" + t + "\" (" + String.join(", ", AgentClients.all())
            + ", all)");
        return SluiceCommand.EXIT_USAGE;
      }
    }
    GatewayAddress gw;
    try {
      gw = GatewayAddress.of(ConfigLoader.load(config, env));
    } catch (ConfigException e) {
      System.err.println("sluice: config error: " + e.getMessage());
      return SluiceCommand.EXIT_USAGE;
    }
    gw = gw.withToken(withToken || env.get("SLUICE_TOKEN") != null);
    if (url != null) {
      gw = gw.withUrl(url);
    }
    if (project && gw.token() && !remove) {
      out.println("warning: --scope project writes shared files (usually committed). They get a reference to "
          + "SLUICE_TOKEN, never the token; everyone using them must export SLUICE_TOKEN."
          + (skipSharedToken ? " --skip-shared-token: skipping them." : ""));
      if (skipSharedToken) {
        return 0;
      }
    }
    AgentSetup setup = new AgentSetup(homeDir(), env, System.getProperty("os.name"), dryRun);
    List<String> lines;
    try {
      lines = remove
          ? setup.remove(targets, project, projectDir)
          : setup.add(targets, project, projectDir, gw, stdioCommand(), guide());
    } catch (IllegalStateException | IOException e) {
      System.err.println("sluice: " + e.getMessage());
      return 1;
    }
    lines.forEach(out::println);
    out.println(dryRun ? "dry run: nothing was written"
        : remove ? "done; restart the clients" : "done; restart the clients to pick up the entry");
    return 0;
  }

  /** $HOME, as every client resolves it; Java's user.home comes from the passwd entry instead. */
  private Path homeDir() {
    if (home != null) {
      return home.toAbsolutePath();
    }
    String h = env.get("HOME");
    return Path.of(h != null && !h.isBlank() ? h : System.getProperty("user.home")).toAbsolutePath();
  }

  /** How Claude Desktop starts this gateway over stdio: this JVM, this jar, this config. */
  private List<String> stdioCommand() {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-jar");
    try {
      cmd.add(Path.of(SetupAgentsCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    } catch (java.net.URISyntaxException | SecurityException | NullPointerException e) {
      cmd.add("sluice.jar");
    }
    cmd.add("stdio");
    if (config != null) {
      cmd.add("--config");
      cmd.add(config.toAbsolutePath().normalize().toString());
    }
    return cmd;
  }

  private static String guide() throws IOException {
    try (InputStream in = SetupAgentsCommand.class.getResourceAsStream("/setup/sluice-research.md")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** For tests: capture what the command prints. */
  SetupAgentsCommand printingTo(PrintStream p) {
    this.out = p;
    return this;
  }

  /** For tests: the environment the command sees ($HOME, SLUICE_TOKEN, XDG_CONFIG_HOME ...). */
  SetupAgentsCommand withEnvironment(Map<String, String> e) {
    this.env = e;
    return this;
  }
}
