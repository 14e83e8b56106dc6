package dev.sluice.mcp.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The official MCP conformance suite (npm @modelcontextprotocol/conformance) against our
 * transport stack: the product's tools only, and with the suite's fixtures registered.
 */
class ConformanceSuiteIT {

  @Test
  void productPassesTheFixtureFreeScenarios() throws Exception {
    NodeClients.node();
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("conf")), null)) {
      assertAllPass(gw.url(), NodeClients.list("expected-pass.gateway.txt"));
    }
  }

  @Test
  void fixturesPassEveryServerScenario() throws Exception {
    NodeClients.node();
    try (TestGateway gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(),
        Files.createTempDirectory("conf")), FixtureServerMain.FIXTURES)) {
      List<String> scenarios = NodeClients.list("expected-pass.fixtures.txt");
      assertEquals(NodeClients.list("scenarios.fixtures.txt").size(), scenarios.size(),
          "every server scenario of the suite is expected to pass with fixtures");
      assertAllPass(gw.url(), scenarios);
    }
  }

  private static void assertAllPass(String url, List<String> scenarios) throws Exception {
    List<String> failed = new ArrayList<>();
    for (String s : scenarios) {
      NodeClients.Run r = NodeClients.run(120, "node_modules/@modelcontextprotocol/conformance/dist/index.js",
          "server", "--url", url, "--scenario", s);
      if (r.exit() != 0 || !r.output().contains("0 failed")) {
        failed.add(s + ":\n" + r.output());
      }
    }
    assertTrue(failed.isEmpty(), failed.size() + " scenario(s) failed:\n" + String.join("\n", failed));
    System.out.println("conformance: " + scenarios.size() + "/" + scenarios.size() + " scenarios passed at " + url);
  }
}
