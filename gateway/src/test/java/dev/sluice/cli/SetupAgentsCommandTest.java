package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class SetupAgentsCommandTest {

  @TempDir
  Path dir;

  private String run(String... args) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    SetupAgentsCommand cmd = new SetupAgentsCommand().printingTo(new PrintStream(buf, true, StandardCharsets.UTF_8));
    int code = new CommandLine(cmd).execute(args);
    assertEquals(0, code, buf.toString(StandardCharsets.UTF_8));
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void userScopeMergesOurEntryAndKeepsEverythingElse() throws Exception {
    Path home = dir.resolve("home");
    Files.createDirectories(home);
    Files.writeString(home.resolve(".claude.json"), "{\"theme\":\"dark\",\"mcpServers\":{\"other\":{\"url\":\"x\"}}}");
    String out = run("--home", home.toString(), "--url", "http://127.0.0.1:9000/mcp");
    JsonObject claude = new JsonObject(Files.readString(home.resolve(".claude.json")));
    assertEquals("dark", claude.getString("theme"));
    assertEquals("x", claude.getJsonObject("mcpServers").getJsonObject("other").getString("url"));
    assertEquals(new JsonObject().put("type", "http").put("url", "http://127.0.0.1:9000/mcp"),
        claude.getJsonObject("mcpServers").getJsonObject("sluice"));
    assertEquals("http://127.0.0.1:9000/mcp", new JsonObject(Files.readString(home.resolve(".cursor/mcp.json")))
        .getJsonObject("mcpServers").getJsonObject("sluice").getString("url"));
    assertTrue(Files.readString(home.resolve(".claude/skills/sluice-research/SKILL.md")).contains("discover_data"));
    assertTrue(out.contains("[mcp_servers.sluice]"), out);
    assertTrue(out.contains("\"type\" : \"remote\""), out);
    run("--home", home.toString());
    assertEquals(2, new JsonObject(Files.readString(home.resolve(".claude.json"))).getJsonObject("mcpServers").size(),
        "running again replaces our entry, nothing more");
  }

  @Test
  void tokensAreOnlyEverReferencesAndDryRunWritesNothing() throws Exception {
    Path project = dir.resolve("project");
    Files.createDirectories(project);
    String dry = run("--scope", "project", "--project-dir", project.toString(), "--with-token", "--dry-run");
    assertTrue(dry.contains("warning: --scope project writes shared files"), dry);
    assertTrue(dry.contains("would add mcpServers.sluice in"), dry);
    try (Stream<Path> files = Files.list(project)) {
      assertEquals(0, files.count(), "dry run wrote something");
    }
    String out = run("--scope", "project", "--project-dir", project.toString(), "--with-token");
    JsonObject mcp = new JsonObject(Files.readString(project.resolve(".mcp.json")));
    assertEquals("Bearer ${SLUICE_TOKEN}", mcp.getJsonObject("mcpServers").getJsonObject("sluice")
        .getJsonObject("headers").getString("Authorization"));
    assertTrue(out.contains("codex: skipped"), out);
    assertTrue(Files.exists(project.resolve(".cursor/rules/sluice-research.mdc")));
    String token = System.getenv("SLUICE_TOKEN");
    if (token != null) {
      assertFalse(out.contains(token) || Files.readString(project.resolve(".mcp.json")).contains(token));
    }
  }

  @Test
  void invalidJsonIsLeftAlone() throws Exception {
    Path home = dir.resolve("h2");
    Files.createDirectories(home);
    Files.writeString(home.resolve(".claude.json"), "{not json");
    int code = new CommandLine(new SetupAgentsCommand().printingTo(new PrintStream(new ByteArrayOutputStream())))
        .execute("--home", home.toString(), "--target", "claude-code");
    assertEquals(1, code);
    assertEquals("{not json", Files.readString(home.resolve(".claude.json")));
  }
}
