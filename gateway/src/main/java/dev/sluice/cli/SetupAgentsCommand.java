package dev.sluice.cli;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code sluice setup-agents}: registers this gateway with MCP clients and installs the research
 * guide. Claude Code and Cursor configs are edited in place (only our {@code sluice} entry is
 * added or replaced; everything else is kept); Codex and opencode get printed snippets. A token is
 * only ever written as a {@code ${SLUICE_TOKEN}} reference, never as its value.
 */
@Command(name = "setup-agents", mixinStandardHelpOptions = true,
    description = "Register this gateway with Claude Code, Cursor, Codex and opencode, and install the "
        + "research guide. --dry-run shows every file and change first.")
final class SetupAgentsCommand implements Callable<Integer> {

  static final String ENTRY = "sluice";
  static final String TOKEN_REF = "Bearer ${SLUICE_TOKEN}";

  @Option(names = "--target", split = ",", paramLabel = "CLIENT",
      description = "claude-code, cursor, codex, opencode or all (default: all)")
  List<String> targets = List.of("all");

  @Option(names = "--scope", paramLabel = "user|project", description = "user (your home) or project (default: user)")
  String scope = "user";

  @Option(names = "--project-dir", paramLabel = "DIR", description = "project root for --scope project (default: .)")
  Path projectDir = Path.of(".");

  @Option(names = "--url", paramLabel = "URL", description = "the gateway's MCP URL (default http://127.0.0.1:7878/mcp)")
  String url = "http://127.0.0.1:7878/mcp";

  @Option(names = "--with-token", description = "add Authorization: Bearer ${SLUICE_TOKEN} (also when SLUICE_TOKEN is set)")
  boolean withToken;

  @Option(names = "--skip-shared-token", description = "with a token and --scope project: do not write the shared files")
  boolean skipSharedToken;

  @Option(names = "--dry-run", description = "print what would change, write nothing")
  boolean dryRun;

  @Option(names = "--home", hidden = true, description = "home directory (tests)")
  Path home = Path.of(System.getProperty("user.home"));

  private PrintStream out = System.out;

  @Override
  public Integer call() throws Exception {
    boolean token = withToken || System.getenv("SLUICE_TOKEN") != null;
    boolean project = scope.equals("project");
    if (!project && !scope.equals("user")) {
      System.err.println("sluice: --scope is user or project, got \"" + scope + "\"");
      return SluiceCommand.EXIT_USAGE;
    }
    List<String> chosen = targets.contains("all") ? List.of("claude-code", "cursor", "codex", "opencode") : targets;
    for (String t : chosen) {
      if (!List.of("claude-code", "cursor", "codex", "opencode").contains(t)) {
        System.err.println("sluice: unknown --target \"" + t + "\" (claude-code, cursor, codex, opencode, all)");
        return SluiceCommand.EXIT_USAGE;
      }
    }
    if (project && token) {
      out.println("warning: --scope project writes shared files (usually committed). They get the reference "
          + "${SLUICE_TOKEN}, never the token; everyone using them must export SLUICE_TOKEN."
          + (skipSharedToken ? " --skip-shared-token: skipping them." : ""));
      if (skipSharedToken) {
        return 0;
      }
    }
    Path base = project ? projectDir : home;
    String guide = guide();
    List<String> done = new ArrayList<>();
    try {
      for (String t : chosen) {
        switch (t) {
          case "claude-code" -> {
            JsonObject entry = new JsonObject().put("type", "http").put("url", url);
            headers(entry, token);
            done.add(mergeEntry(project ? base.resolve(".mcp.json") : base.resolve(".claude.json"), "mcpServers",
                entry));
            done.add(writeFile(base.resolve(".claude/skills/sluice-research/SKILL.md"), guide));
          }
          case "cursor" -> {
            JsonObject entry = new JsonObject().put("url", url);
            headers(entry, token);
            done.add(mergeEntry(base.resolve(".cursor/mcp.json"), "mcpServers", entry));
            if (project) {
              done.add(writeFile(base.resolve(".cursor/rules/sluice-research.mdc"), guide));
            }
          }
          case "codex" -> {
            if (token) {
              out.println("codex: skipped - its MCP config has no documented headers field, so a token cannot be "
                  + "passed; run the gateway on loopback without a token for Codex, or add it by hand later.");
            } else {
              out.println("codex: add to ~/.codex/config.toml:\n[mcp_servers." + ENTRY + "]\nurl = \"" + url + "\"");
            }
          }
          default -> {
            JsonObject entry = new JsonObject().put("type", "remote").put("url", url).put("enabled", true);
            headers(entry, token);
            out.println("opencode: add to opencode.json under \"mcp\":\n"
                + new JsonObject().put("mcp", new JsonObject().put(ENTRY, entry)).encodePrettily());
          }
        }
      }
    } catch (IllegalStateException e) {
      System.err.println("sluice: " + e.getMessage());
      return 1;
    }
    done.forEach(out::println);
    out.println(dryRun ? "dry run: nothing was written" : "done; restart the clients to pick up the entry");
    return 0;
  }

  private static void headers(JsonObject entry, boolean token) {
    if (token) {
      entry.put("headers", new JsonObject().put("Authorization", TOKEN_REF));
    }
  }

  /** Sets {@code key.sluice} in a JSON file, keeping everything else; refuses to touch invalid JSON. */
  private String mergeEntry(Path file, String key, JsonObject entry) throws IOException {
    JsonObject doc = new JsonObject();
    if (Files.exists(file)) {
      try {
        doc = new JsonObject(Files.readString(file, StandardCharsets.UTF_8));
      } catch (DecodeException e) {
        throw new IllegalStateException(file + " is not valid JSON; fix or move it, nothing was changed");
      }
    }
    JsonObject servers = doc.getJsonObject(key, new JsonObject());
    String action = servers.containsKey(ENTRY) ? "replace" : "add";
    doc.put(key, servers.put(ENTRY, entry));
    if (!dryRun) {
      atomicWrite(file, doc.encodePrettily() + "\n");
    }
    return (dryRun ? "would " : "") + action + " " + key + "." + ENTRY + " in " + file + ": " + entry.encode();
  }

  private String writeFile(Path file, String text) throws IOException {
    if (!dryRun) {
      atomicWrite(file, text);
    }
    return (dryRun ? "would write " : "wrote ") + file;
  }

  private static void atomicWrite(Path file, String text) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    Path tmp = file.resolveSibling("." + file.getFileName() + ".sluice-tmp");
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
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
}
