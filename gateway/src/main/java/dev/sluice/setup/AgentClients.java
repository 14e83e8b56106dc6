package dev.sluice.setup;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The MCP clients setup-agents knows: where each keeps its servers (per user and per project) and
 * the entry it understands. A token is written only as a reference in each client's own syntax
 * for an environment variable, never as its value.
 */
public final class AgentClients {

  public static final List<String> EDITED = List.of("claude-code", "cursor", "vscode", "gemini", "windsurf",
      "claude-desktop");
  public static final List<String> PRINTED = List.of("codex", "opencode");

  private final Path home;
  private final Map<String, String> env;
  private final String osName;

  /**
   * @param home the user's home ({@code $HOME}; Java's user.home comes from passwd and ignores it)
   * @param osName {@code os.name}, for the per-platform config directories
   */
  public AgentClients(Path home, Map<String, String> env, String osName) {
    this.home = home;
    this.env = env;
    this.osName = osName.toLowerCase(Locale.ROOT);
  }

  /** Every known client name, for validating --target. */
  public static List<String> all() {
    List<String> all = new ArrayList<>(EDITED);
    all.addAll(PRINTED);
    return all;
  }

  /** Our entry for {@code client}, or null when it has no such scope (e.g. Windsurf per project). */
  public ClientEntry entry(String client, boolean project, Path projectDir, GatewayAddress gw, List<String> stdioArgs) {
    Path base = project ? projectDir : home;
    return switch (client) {
      case "claude-code" -> new ClientEntry(client, base.resolve(project ? ".mcp.json" : ".claude.json"), "mcpServers",
          headers(new JsonObject().put("type", "http").put("url", gw.url()), gw, "Bearer ${SLUICE_TOKEN}"));
      case "cursor" -> new ClientEntry(client, base.resolve(".cursor/mcp.json"), "mcpServers",
          headers(new JsonObject().put("url", gw.url()), gw, "Bearer ${env:SLUICE_TOKEN}"));
      case "vscode" -> new ClientEntry(client, project ? base.resolve(".vscode/mcp.json")
          : userConfigDir().resolve("Code/User/mcp.json"), "servers",
          headers(new JsonObject().put("type", "http").put("url", gw.url()), gw, "Bearer ${env:SLUICE_TOKEN}"));
      case "gemini" -> new ClientEntry(client, base.resolve(".gemini/settings.json"), "mcpServers",
          headers(new JsonObject().put("httpUrl", gw.url()), gw, "Bearer ${SLUICE_TOKEN}"));
      case "windsurf" -> project ? null : new ClientEntry(client, home.resolve(".codeium/windsurf/mcp_config.json"),
          "mcpServers", headers(new JsonObject().put("serverUrl", gw.url()), gw, "Bearer ${env:SLUICE_TOKEN}"));
      // Claude Desktop spawns its servers: the stdio command line, no URL and no token
      case "claude-desktop" -> project ? null : new ClientEntry(client,
          (osName.contains("mac") ? home.resolve("Library/Application Support") : userConfigDir())
              .resolve("Claude/claude_desktop_config.json"), "mcpServers",
          new JsonObject().put("command", stdioArgs.get(0))
              .put("args", new JsonArray(stdioArgs.subList(1, stdioArgs.size()))));
      default -> throw new IllegalArgumentException("not an edited client: " + client);
    };
  }

  /** The research guide's file for {@code client}, or null. */
  public Path guide(String client, boolean project, Path projectDir) {
    Path base = project ? projectDir : home;
    return switch (client) {
      case "claude-code" -> base.resolve(".claude/skills/sluice-research/SKILL.md");
      case "cursor" -> project ? base.resolve(".cursor/rules/sluice-research.mdc") : null;
      default -> null;
    };
  }

  /**
   * Whether the client looks installed (its config directory exists): "all" only edits those, so
   * setup never litters a home with configs of clients the user does not have.
   */
  public boolean present(String client, boolean project, Path projectDir) {
    Path base = project ? projectDir : home;
    return switch (client) {
      case "claude-code" -> project || Files.exists(home.resolve(".claude.json")) || Files.isDirectory(home.resolve(".claude"));
      case "cursor" -> Files.isDirectory(base.resolve(".cursor"));
      case "vscode" -> project ? Files.isDirectory(base.resolve(".vscode"))
          : Files.isDirectory(userConfigDir().resolve("Code/User"));
      case "gemini" -> Files.isDirectory(base.resolve(".gemini"));
      case "windsurf" -> !project && Files.isDirectory(home.resolve(".codeium/windsurf"));
      case "claude-desktop" -> !project && Files.isDirectory(entry(client, false, projectDir,
          new GatewayAddress("", false), List.of("java")).file().getParent());
      default -> false;
    };
  }

  /** Snippets for clients whose config we do not edit (TOML, or per-project files we cannot place). */
  public String printed(String client, GatewayAddress gw) {
    if (client.equals("codex")) {
      return gw.token()
          ? "codex: skipped - its MCP config has no documented headers field, so a token cannot be passed; run the "
              + "gateway on loopback without a token for Codex, or add it by hand later."
          : "codex: add to ~/.codex/config.toml:\n[mcp_servers." + ClientEntry.NAME + "]\nurl = \"" + gw.url() + "\"";
    }
    JsonObject entry = headers(new JsonObject().put("type", "remote").put("url", gw.url()).put("enabled", true), gw,
        "Bearer {env:SLUICE_TOKEN}");
    return "opencode: add to opencode.json under \"mcp\":\n"
        + new JsonObject().put("mcp", new JsonObject().put(ClientEntry.NAME, entry)).encodePrettily();
  }

  private static JsonObject headers(JsonObject entry, GatewayAddress gw, String reference) {
    return gw.token() ? entry.put("headers", new JsonObject().put("Authorization", reference)) : entry;
  }

  /** $XDG_CONFIG_HOME or ~/.config (Linux), ~/Library/Application Support (macOS), %APPDATA% (Windows). */
  private Path userConfigDir() {
    if (osName.contains("mac")) {
      return home.resolve("Library/Application Support");
    }
    if (osName.contains("win") && env.get("APPDATA") != null) {
      return Path.of(env.get("APPDATA"));
    }
    String xdg = env.get("XDG_CONFIG_HOME");
    return xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute() ? Path.of(xdg) : home.resolve(".config");
  }
}
