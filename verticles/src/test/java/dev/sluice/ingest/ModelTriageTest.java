package dev.sluice.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.sluice.config.IngestConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model-backed triage against a local stub of an OpenAI-compatible endpoint (no real model is
 * called in tests): what it may change, what it may not, and the fallback when it fails.
 */
class ModelTriageTest {

  private HttpServer stub;
  private final AtomicInteger status = new AtomicInteger(200);
  private final AtomicReference<String> reply = new AtomicReference<>();
  private final List<JsonObject> requests = new ArrayList<>();
  private final List<String> auth = new ArrayList<>();

  @BeforeEach
  void startStub() throws Exception {
    stub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    stub.createContext("/v1/chat/completions", ex -> {
      requests.add(new JsonObject(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
      auth.add(ex.getRequestHeaders().getFirst("Authorization"));
      byte[] body = new JsonObject().put("choices", new JsonArray().add(new JsonObject()
          .put("message", new JsonObject().put("role", "assistant").put("content", reply.get())))).encode()
          .getBytes(StandardCharsets.UTF_8);
      ex.sendResponseHeaders(status.get(), body.length);
      ex.getResponseBody().write(body);
      ex.close();
    });
    stub.start();
  }

  @AfterEach
  void stopStub() {
    stub.stop(0);
  }

  private ModelTriage triage() {
    return new ModelTriage(new IngestConfig.Model("http://127.0.0.1:" + stub.getAddress().getPort() + "/v1",
        "sk-test", "stub-model", 5_000));
  }

  private static IngestRun run() {
    return IngestRun.queued("00000000-0000-0000-0000-00000000000a", null, "test", "2026-11-23T00:00:00Z", null, null, null);
  }

  @Test
  void theModelFillsSummaryAndTagsButNeverTheKeyOrBody() {
    reply.set("{\"summary\": \"How refunds reduce net revenue.\", \"tags\": [\"Finance\", \"refunds!\"]}");
    String note = "# Net revenue\nNet revenue is order totals minus refunds. #kpi\n";
    PagePlan plan = triage().plan(note, null, List.of(), run());
    assertEquals("net-revenue", plan.key());
    assertEquals("# Net revenue\nNet revenue is order totals minus refunds. #kpi\n", plan.body());
    assertEquals("How refunds reduce net revenue.", plan.frontmatter().get("summary"));
    assertEquals(List.of("kpi", "finance", "refunds"), plan.frontmatter().get("tags"));
    assertEquals("model:stub-model", plan.frontmatter().get("triage"));
    assertEquals(List.of("Bearer sk-test"), auth);
    JsonObject sent = requests.get(0);
    assertEquals("stub-model", sent.getString("model"));
    assertEquals(note.strip() + "\n", sent.getJsonArray("messages").getJsonObject(1).getString("content"));
  }

  @Test
  void theAuthorsSummaryWins() {
    reply.set("{\"summary\": \"model summary\", \"tags\": []}");
    PagePlan plan = triage().plan("---\nsummary: Written by a person\n---\n# Rule\nText.\n", null, List.of(), run());
    assertEquals("Written by a person", plan.frontmatter().get("summary"));
  }

  @Test
  void aFailingModelFallsBackToTheDeterministicPlanWithAWarning() {
    status.set(500);
    reply.set("{}");
    PagePlan plan = triage().plan("# Rule\nOrders ship within two days.\n", null, List.of(), run());
    assertEquals("Orders ship within two days", plan.frontmatter().get("summary"));
    assertTrue(plan.warnings().get(0).startsWith("model triage failed (HTTP 500"), plan.warnings().toString());
    status.set(200);
    reply.set("not json at all");
    PagePlan garbled = triage().plan("# Rule\nOrders ship within two days.\n", null, List.of(), run());
    assertTrue(garbled.warnings().get(0).startsWith("model triage failed"), garbled.warnings().toString());
  }
}
