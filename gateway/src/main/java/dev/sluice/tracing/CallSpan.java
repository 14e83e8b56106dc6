package dev.sluice.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The span of one tools/call. Attributes: {@code sluice.tool}, {@code sluice.connection}, {@code
 * sluice.principal}, {@code sluice.outcome} (ok, error, cancelled), {@code sluice.rows}, plus the
 * MCP semantic-convention names {@code mcp.method.name}, {@code gen_ai.tool.name}, {@code
 * mcp.session.id}, {@code jsonrpc.request.id} and {@code error.type}. Each statement the call ran
 * adds three child spans built from the executor's {@code timings} ({@link #statement}).
 */
public final class CallSpan {

  /** What a call gets while tracing is off: every method does nothing. */
  public static final CallSpan NONE = new CallSpan(null, null, null);

  private final Span span;
  private final Tracer tracer;
  private final String connectionId;

  private CallSpan(Span span, Tracer tracer, String connectionId) {
    this.span = span;
    this.tracer = tracer;
    this.connectionId = connectionId;
  }

  static CallSpan start(Tracer tracer, OpenTelemetry otel, String tool, String connectionId, String principal,
      String sessionId, Object requestId, JsonObject meta) {
    Context parent = Context.root();
    if (meta != null && meta.getValue("traceparent") instanceof String) {
      parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), meta, META);
    }
    var b = tracer.spanBuilder("tools/call " + tool).setParent(parent).setSpanKind(SpanKind.SERVER)
        .setAttribute("mcp.method.name", "tools/call")
        .setAttribute("gen_ai.tool.name", tool)
        .setAttribute(Tracing.TOOL, tool)
        .setAttribute("sluice.principal", principal == null ? "default" : principal);
    if (connectionId != null) {
      b.setAttribute("sluice.connection", connectionId);
    }
    if (sessionId != null) {
      b.setAttribute("mcp.session.id", sessionId);
    }
    if (requestId != null) {
      b.setAttribute("jsonrpc.request.id", String.valueOf(requestId));
    }
    return new CallSpan(b.startSpan(), tracer, connectionId);
  }

  /** Now, in the clock spans use (epoch nanoseconds). */
  public static long now() {
    return io.opentelemetry.sdk.common.Clock.getDefault().now();
  }

  /**
   * Child spans for one statement, from the executor's reply {@code timings} ({@code analysisMs},
   * {@code poolWaitMs}, {@code engineMs}, fractional milliseconds) laid end to end from {@code
   * sentAtNanos}, when the gateway sent the request. Explicit timestamps: the executor measured
   * them, possibly on another thread, and the spans are made after the fact.
   */
  public void statement(JsonObject timings, long sentAtNanos) {
    if (span == null || timings == null) {
      return;
    }
    long at = sentAtNanos;
    for (List<String> part : List.of(List.of("sluice.guard", "analysisMs"), List.of("sluice.pool_wait", "poolWaitMs"),
        List.of("sluice.engine", "engineMs"))) {
      Number ms = timings.getNumber(part.get(1));
      if (ms == null) {
        continue;
      }
      long end = at + (long) (ms.doubleValue() * 1_000_000);
      var b = tracer.spanBuilder(part.get(0)).setParent(Context.root().with(span))
          .setStartTimestamp(at, TimeUnit.NANOSECONDS);
      if (connectionId != null) {
        b.setAttribute("sluice.connection", connectionId);
      }
      b.startSpan().end(end, TimeUnit.NANOSECONDS);
      at = end;
    }
  }

  /**
   * Ends the span.
   *
   * @param outcome ok, error or cancelled
   * @param errorType the error_type of a failed call, else null
   * @param rows the result's rowCount, or null
   */
  public void end(String outcome, String errorType, Integer rows) {
    if (span == null) {
      return;
    }
    span.setAttribute("sluice.outcome", outcome);
    if (rows != null) {
      span.setAttribute(AttributeKey.longKey("sluice.rows"), rows.longValue());
    }
    if (errorType != null) {
      span.setAttribute("error.type", errorType);
      span.setStatus(StatusCode.ERROR, errorType);
    }
    span.end();
  }

  /** Ends the span with what the call came to: its rowCount, or the error_type it failed with. */
  public void end(io.vertx.core.AsyncResult<dev.sluice.mcp.tool.ToolResult> ar, boolean cancelled) {
    if (span == null) {
      return;
    }
    if (cancelled) {
      end("cancelled", null, null);
    } else if (ar.succeeded()) {
      JsonObject s = ar.result().structured();
      end("ok", null, s == null ? null : s.getInteger("rowCount"));
    } else {
      end("error", dev.sluice.sql.SqlError.from(ar.cause()).type().wireName(), null);
    }
  }

  /** W3C traceparent of a span context. */
  static String traceparent(SpanContext c) {
    return "00-" + c.getTraceId() + "-" + c.getSpanId() + "-" + c.getTraceFlags().asHex();
  }

  private static final TextMapGetter<JsonObject> META = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(JsonObject m) {
      return m.fieldNames();
    }

    @Override
    public String get(JsonObject m, String key) {
      return m == null || !(m.getValue(key) instanceof String s) ? null : s;
    }
  };
}
