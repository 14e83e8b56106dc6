package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** setup-agents on scratch homes: only our entry changes, and --remove puts every file back. */
class SetupAgentsCommandTest {

  @TempDir
  Path dir;

  private Path home() throws Exception {
    return Files.createDirectories(dir.resolve("home"));
  }

  /** Runs with {@code $HOME} = {@code home} (never --home), so the test also pins that $HOME wins. */
  private String run(Path home, String... args) {
    return run(0, Map.of("HOME", home.toString()), args);
  }

  private String run(int expectedExit, Map<String, String> env, String... args) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    SetupAgentsCommand cmd = new SetupAgentsCommand().printingTo(new PrintStream(buf, true, StandardCharsets.UTF_8))
        .withEnvironment(env);
    int code = new CommandLine(cmd).execute(args);
    assertEquals(expectedExit, code, buf.toString(StandardCharsets.UTF_8));
    return buf.toString(StandardCharsets.UTF_8);
  }

  private static JsonObject json(Path p) throws Exception {
    return new JsonObject(Files.readString(p));
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }

  private static List<String> tree(Path root) throws Exception {
    try (Stream<Path> s = Files.walk(root)) {
      return s.map(p -> root.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  void honoursHomeKeepsModeSymlinksAndOtherKeysAndRemoveRestoresTheFile() throws Exception {
    Path home = home();
    // ~/.claude.json is a symlink into a dotfiles repo, 0600, with the user's own keys and servers
    Path dotfiles = Files.createDirectories(dir.resolve("dotfiles"));
    String original = "{\"theme\":\"dark\",\"mcpServers\":{\"other\":{\"url\":\"x\"}},\"numStartups\":7}";
    Path real = Files.writeString(dotfiles.resolve("claude.json"), original);
    Files.setPosixFilePermissions(real, PosixFilePermissions.fromString("rw-------"));
    Files.createSymbolicLink(home.resolve(".claude.json"), Path.of("../dotfiles/claude.json"));

    String out = run(home, "--target", "claude-code", "--url", "http://127.0.0.1:9000/mcp");
    assertTrue(Files.isSymbolicLink(home.resolve(".claude.json")), "the symlink is kept: " + out);
    assertEquals("rw-------", mode(real), "0600 stays 0600");
    JsonObject claude = json(real);
    assertEquals("dark", claude.getString("theme"));
    assertEquals(7, claude.getInteger("numStartups"));
    assertEquals("x", claude.getJsonObject("mcpServers").getJsonObject("other").getString("url"));
    assertEquals(new JsonObject().put("type", "http").put("url", "http://127.0.0.1:9000/mcp"),
        claude.getJsonObject("mcpServers").getJsonObject("sluice"));
    assertTrue(Files.readString(home.resolve(".claude/skills/sluice-research/SKILL.md")).contains("discover_data"));

    run(home, "--target", "claude-code");
    assertEquals(2, json(real).getJsonObject("mcpServers").size(), "running again replaces our entry, nothing more");

    String removed = run(home, "--target", "claude-code", "--remove");
    assertTrue(removed.contains("remove mcpServers.sluice in"), removed);
    assertEquals(new JsonObject(original), json(real), "every entry of the file is back as it was");
    assertTrue(Files.isSymbolicLink(home.resolve(".claude.json")));
    assertEquals("rw-------", mode(real));
    assertEquals(List.of("", ".claude", ".claude.json", ".claude/skills"), tree(home),
        "the guide is gone, and so is the manifest");
  }

  @Test
  void anEntryNamedSluiceThatWasThereBeforeComesBackOnRemove() throws Exception {
    Path home = home();
    Files.createDirectories(home.resolve(".cursor"));
    JsonObject theirs = new JsonObject().put("url", "http://their-own-sluice:1/mcp");
    Path cursor = Files.writeString(home.resolve(".cursor/mcp.json"),
        new JsonObject().put("mcpServers", new JsonObject().put("sluice", theirs)).encode());
    run(home, "--target", "cursor");
    run(home, "--target", "cursor");
    assertEquals("http://127.0.0.1:7878/mcp", json(cursor).getJsonObject("mcpServers").getJsonObject("sluice")
        .getString("url"));
    String out = run(home, "--target", "cursor", "--remove");
    assertTrue(out.contains("restore the earlier mcpServers.sluice"), out);
    assertEquals(theirs, json(cursor).getJsonObject("mcpServers").getJsonObject("sluice"));
  }

  @Test
  void hostPortAndTokenComeFromTheConfigAndEveryClientGetsItsOwnShape() throws Exception {
    Path home = home();
    for (String d : List.of(".claude", ".cursor", ".gemini", ".codeium/windsurf", ".config/Code/User", ".config/Claude")) {
      Files.createDirectories(home.resolve(d));
    }
    Path cfg = Files.writeString(dir.resolve("sluice.yaml"),
        "server:\n  host: 0.0.0.0\n  port: 9123\n  token: ${T}\n");
    Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), "T", "a-secret-token-value-123"));
    String out = run(0, env, "--config", cfg.toString());
    String url = "http://127.0.0.1:9123/mcp";
    assertFalse(out.contains("a-secret-token-value-123"));

    JsonObject claude = json(home.resolve(".claude.json")).getJsonObject("mcpServers").getJsonObject("sluice");
    assertEquals(url, claude.getString("url"));
    assertEquals("Bearer ${SLUICE_TOKEN}", claude.getJsonObject("headers").getString("Authorization"));
    JsonObject vscode = json(home.resolve(".config/Code/User/mcp.json")).getJsonObject("servers").getJsonObject("sluice");
    assertEquals(new JsonObject().put("type", "http").put("url", url)
        .put("headers", new JsonObject().put("Authorization", "Bearer ${env:SLUICE_TOKEN}")), vscode);
    assertEquals(url, json(home.resolve(".gemini/settings.json")).getJsonObject("mcpServers").getJsonObject("sluice")
        .getString("httpUrl"));
    assertEquals(url, json(home.resolve(".codeium/windsurf/mcp_config.json")).getJsonObject("mcpServers")
        .getJsonObject("sluice").getString("serverUrl"));
    JsonObject desktop = json(home.resolve(".config/Claude/claude_desktop_config.json")).getJsonObject("mcpServers")
        .getJsonObject("sluice");
    assertTrue(desktop.getString("command").endsWith("/bin/java"), desktop.encode());
    JsonArray args = desktop.getJsonArray("args");
    assertEquals("-jar", args.getString(0));
    assertEquals(List.of("stdio", "--config", cfg.toAbsolutePath().toString()), args.getList().subList(2, 5));
    assertFalse(desktop.containsKey("headers"), "stdio needs no token");
    assertEquals("rw-------", mode(home.resolve(".gemini/settings.json")), "new files are the user's alone");
    assertTrue(out.contains("[mcp_servers.sluice]") || out.contains("codex: skipped"), out);

    run(0, env, "--config", cfg.toString(), "--remove");
    assertEquals(List.of("", ".claude", ".claude/skills", ".codeium", ".codeium/windsurf", ".config", ".config/Claude",
        ".config/Code", ".config/Code/User", ".cursor", ".gemini"), tree(home), "--remove takes out every file it created");
  }

  @Test
  void allSkipsClientsThatAreNotInstalledAndATargetWritesAnyway() throws Exception {
    Path home = home();
    String out = run(home);
    assertTrue(out.contains("cursor: not found") && out.contains("claude-code: not found"), out);
    assertEquals(List.of(""), tree(home), "nothing installed, nothing written: " + out);
    run(home, "--target", "cursor");
    assertTrue(Files.exists(home.resolve(".cursor/mcp.json")));
  }

  @Test
  void tokensAreOnlyEverReferencesAndDryRunWritesNothing() throws Exception {
    Path home = home();
    Path project = Files.createDirectories(dir.resolve("project"));
    String dry = run(home, "--scope", "project", "--project-dir", project.toString(), "--with-token", "--dry-run");
    assertTrue(dry.contains("warning: --scope project writes shared files"), dry);
    assertTrue(dry.contains("would add mcpServers.sluice in"), dry);
    assertEquals(List.of(""), tree(project), "dry run wrote something");
    assertEquals(List.of(""), tree(home), "dry run wrote something");
    String out = run(home, "--scope", "project", "--project-dir", project.toString(), "--with-token",
        "--target", "claude-code,cursor,codex");
    assertEquals("Bearer ${SLUICE_TOKEN}", json(project.resolve(".mcp.json")).getJsonObject("mcpServers")
        .getJsonObject("sluice").getJsonObject("headers").getString("Authorization"));
    assertTrue(out.contains("codex: skipped"), out);
    assertTrue(Files.exists(project.resolve(".cursor/rules/sluice-research.mdc")));
  }

  @Test
  void invalidJsonIsLeftAlone() throws Exception {
    Path home = home();
    Files.writeString(home.resolve(".claude.json"), "{not json");
    run(1, Map.of("HOME", home.toString()), "--target", "claude-code");
    assertEquals("{not json", Files.readString(home.resolve(".claude.json")));
  }
}
