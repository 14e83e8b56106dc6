package dev.sluice.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ConfigLoader;
import dev.sluice.testing.NodeClients;
import dev.sluice.testing.TestGateway;
import dev.sluice.testing.ToolTour;
import io.vertx.core.json.JsonObject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The result viewer in headless Chromium, fed real results of a running gateway by a host built on
 * the extension's AppBridge (loadtest/mcp-clients/app-viewer-browser.mjs): a grouped result as a
 * table and a bar chart, a time series as a line chart, sql_compare side by side, light and dark.
 * The screenshots stay in gateway/target/app-viewer/ (docs/app.md shows one of them).
 */
class ResultViewerBrowserIT {

  @Test
  void aHostOnAppBridgeRendersRealResultsAsTablesAndCharts() throws Exception {
    NodeClients.node();
    ToolTour tour = ToolTour.prepare();
    Path shots = NodeClients.projectRoot().resolve("gateway/target/app-viewer");
    try (TestGateway gw = TestGateway.start(ConfigLoader.load(tour.config, Map.of()), null)) {
      NodeClients.Run r = NodeClients.run(300, "app-viewer-browser.mjs", gw.url(), ToolTour.WRITER, shots.toString());
      assertEquals(0, r.exit(), r.output());
      JsonObject checks = ToolTour.json(r.output()).getJsonObject("checks");
      JsonObject grouped = checks.getJsonObject("grouped");
      JsonObject series = checks.getJsonObject("timeSeries");
      System.out.printf("result viewer in Chromium: %,d bytes; grouped %d rows -> %d bars; time series %d rows -> "
              + "%d line(s) of %d points; re-run through the host: %d rows; theme %s -> %s%n",
          checks.getJsonObject("resource").getInteger("bytes"), grouped.getInteger("rows"), grouped.getInteger("bars"),
          series.getInteger("rows"), series.getInteger("lines"), series.getInteger("points"),
          checks.getJsonObject("rerun").getInteger("rows"), checks.getJsonObject("theme").getString("lightBg"),
          checks.getJsonObject("theme").getString("darkBg"));
      for (String png : List.of("viewer-grouped-light.png", "viewer-grouped-dark.png", "viewer-timeseries.png",
          "viewer-compare-dark.png")) {
        assertTrue(Files.size(shots.resolve(png)) > 10_000, png + " is missing or empty");
      }
    }
  }
}
