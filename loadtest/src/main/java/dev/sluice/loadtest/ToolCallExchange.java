package dev.sluice.loadtest;

import io.vertx.core.Promise;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.json.JsonObject;

/** The client side of one tools/call: reads its SSE (or JSON) answer and classifies the outcome. */
final class ToolCallExchange {

  private final Scenario scenario;
  private final int id;
  private final long startNanos;
  private final Promise<CallOutcome> done = Promise.promise();
  private HttpClientRequest request;
  private long firstProgressNanos = -1;
  private int progressEvents;
  private boolean cancelSent;
  private boolean cancelAcked;

  ToolCallExchange(Scenario scenario, int id, long startNanos) {
    this.scenario = scenario;
    this.id = id;
    this.startNanos = startNanos;
  }

  Promise<CallOutcome> done() {
    return done;
  }

  void request(HttpClientRequest req) {
    this.request = req;
  }

  void cancelSent() {
    cancelSent = true;
  }

  void cancelAcknowledged(boolean accepted) {
    cancelAcked = accepted;
    if (!accepted) {
      failed("cancel_refused");
    }
  }

  void response(HttpClientResponse res) {
    if (res.statusCode() != 200) {
      res.body().onComplete(b -> failed("http_" + res.statusCode()));
      return;
    }
    String type = res.getHeader("Content-Type");
    if (type == null || !type.startsWith("text/event-stream")) {
      res.body().onSuccess(b -> message(b.toJsonObject())).onFailure(e -> failed("io_body"));
      return;
    }
    SseParser parser = new SseParser((evId, data) -> message(new JsonObject(data)));
    res.handler(parser::feed);
    res.exceptionHandler(e -> failed("io_" + e.getClass().getSimpleName()));
    res.endHandler(v -> {
      // the server may end the stream before our notification's 202 arrives
      if (scenario.cancels() && cancelSent) {
        finish(CallOutcome.Kind.EXPECTED_ERROR, Scenario.CANCELLED);
      } else {
        failed("stream_ended_without_result");
      }
    });
  }

  private void message(JsonObject m) {
    if ("notifications/progress".equals(m.getString("method"))) {
      progressEvents++;
      if (firstProgressNanos < 0) {
        firstProgressNanos = System.nanoTime() - startNanos;
      }
      return;
    }
    Object mid = m.getValue("id");
    if (mid == null || !mid.toString().equals(Integer.toString(id))) {
      return;
    }
    if (m.containsKey("error")) {
      failed("rpc_" + m.getJsonObject("error").getInteger("code"));
      return;
    }
    classify(m.getJsonObject("result", new JsonObject()));
  }

  private void classify(JsonObject result) {
    boolean isError = result.getBoolean("isError", false);
    String type = null;
    if (isError) {
      JsonObject sc = result.getJsonObject("structuredContent");
      type = sc != null ? sc.getString("error_type", "unknown") : typeFromText(result);
    }
    if (scenario.cancels()) {
      if (cancelAcked && Scenario.CANCELLED.equals(type)) {
        failed("result_after_cancel"); // an answer to the request it cancelled
      } else if (cancelAcked) {
        // The answer and the cancel crossed: the call ended before the gateway read the cancel,
        // and the 202, written by another event loop on another connection, arrived first. That
        // nothing is sent once the cancel is read is pinned where it is deterministic
        // (StreamableHttpTransportTest.cancelledCallSendsNoResult, SqlOverMcpContract).
        finish(CallOutcome.Kind.EXPECTED_ERROR, "completed_before_cancel");
      } else if (Scenario.CANCELLED.equals(type)) {
        finish(CallOutcome.Kind.EXPECTED_ERROR, Scenario.CANCELLED);
      } else {
        finish(CallOutcome.Kind.EXPECTED_ERROR, "completed_before_cancel");
      }
    } else if (scenario.expectedError() != null) {
      if (scenario.expectedError().equals(type)) {
        finish(CallOutcome.Kind.EXPECTED_ERROR, type);
      } else {
        failed(type == null ? "expected_" + scenario.expectedError() + "_got_success" : type);
      }
    } else if (isError) {
      failed(type);
    } else {
      finish(CallOutcome.Kind.OK, null);
    }
  }

  /** Without structuredContent the gateway's text block is "error_type: message\n{json}". */
  private static String typeFromText(JsonObject result) {
    try {
      String text = result.getJsonArray("content").getJsonObject(0).getString("text", "");
      int colon = text.indexOf(':');
      return colon > 0 && text.substring(0, colon).matches("[a-z_]+") ? text.substring(0, colon) : "unknown";
    } catch (RuntimeException e) {
      return "unknown";
    }
  }

  void timedOut() {
    if (request != null) {
      request.reset();
    }
    failed("client_timeout");
  }

  void failed(String label) {
    finish(CallOutcome.Kind.UNEXPECTED_ERROR, label);
  }

  private void finish(CallOutcome.Kind kind, String label) {
    if (!done.future().isComplete()) {
      done.tryComplete(new CallOutcome(scenario.name(), System.nanoTime() - startNanos, firstProgressNanos,
          progressEvents, kind, label));
    }
  }
}
