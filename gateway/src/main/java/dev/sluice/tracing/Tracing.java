package dev.sluice.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * OpenTelemetry spans for the gateway: one per HTTP request, one per tools/call with child spans
 * for the guard, the pool wait and the engine. Exported over OTLP http/protobuf, configured by the
 * standard {@code OTEL_*} variables, and off (a no-op, nothing allocated per call) unless an OTLP
 * endpoint is set. The configuration is the process's environment, so there is one instance per
 * process ({@link #process()}); its exporter flushes on JVM exit.
 */
public final class Tracing {

  static final AttributeKey<String> TOOL = AttributeKey.stringKey("sluice.tool");

  private static volatile Tracing process;

  private final Tracer tracer;
  private final OpenTelemetry otel;

  private Tracing(OpenTelemetry otel) {
    this.otel = otel;
    this.tracer = otel == null ? null : otel.getTracer("dev.sluice.gateway");
  }

  /** Tracing as this process's environment asks for it; built once. */
  public static Tracing process() {
    Tracing t = process;
    if (t == null) {
      synchronized (Tracing.class) {
        if (process == null) {
          process = fromEnvironment(System.getenv());
        }
        t = process;
      }
    }
    return t;
  }

  /**
   * On only when {@code OTEL_EXPORTER_OTLP_ENDPOINT} or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}
   * is set (and {@code OTEL_SDK_DISABLED} is not true): an SDK's usual default, a collector on
   * localhost:4318, would send traces nobody asked for. Only the http/protobuf protocol is built
   * in; asking for another is refused with {@link IllegalArgumentException}.
   */
  public static Tracing fromEnvironment(Map<String, String> env) {
    boolean endpoint = present(env, "OTEL_EXPORTER_OTLP_ENDPOINT") || present(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    if (!endpoint || "true".equalsIgnoreCase(env.get("OTEL_SDK_DISABLED"))
        || "none".equalsIgnoreCase(env.getOrDefault("OTEL_TRACES_EXPORTER", "otlp"))) {
      return new Tracing(null);
    }
    for (String k : List.of("OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")) {
      if (present(env, k) && !env.get(k).trim().toLowerCase(Locale.ROOT).equals("http/protobuf")) {
        throw new IllegalArgumentException(k + " must be http/protobuf (the only OTLP protocol built in), got \""
            + env.get(k) + "\"");
      }
    }
    OpenTelemetry sdk = AutoConfiguredOpenTelemetrySdk.builder()
        // defaults below the environment: traces only, over http/protobuf, as "sluice"
        .addPropertiesSupplier(() -> Map.of(
            "otel.traces.exporter", "otlp",
            "otel.metrics.exporter", "none",
            "otel.logs.exporter", "none",
            "otel.exporter.otlp.protocol", "http/protobuf",
            "otel.service.name", "sluice"))
        .addPropertiesCustomizer(p -> env.equals(System.getenv()) ? Map.of() : asProperties(env))
        .build()
        .getOpenTelemetrySdk();
    return new Tracing(sdk);
  }

  public boolean enabled() {
    return tracer != null;
  }

  /**
   * Router handler, first in the chain: a server span per request ({@link #serverSpan}), ended
   * with the response.
   */
  public void httpRequest(RoutingContext ctx) {
    Span span = serverSpan(ctx.request());
    if (span != null) {
      ctx.addEndHandler(ar -> endServerSpan(span, ctx.response(), ar.failed()));
    }
    ctx.next();
  }

  /**
   * A server span for {@code req}, named {@code METHOD path}, whose parent is the W3C
   * {@code traceparent} header if any; null when tracing is off. The caller ends it with
   * {@link #endServerSpan} once the response ended or its connection closed.
   */
  public Span serverSpan(HttpServerRequest req) {
    if (tracer == null) {
      return null;
    }
    Context parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), req,
        new TextMapGetter<HttpServerRequest>() {
          @Override
          public Iterable<String> keys(HttpServerRequest r) {
            return r.headers().names();
          }

          @Override
          public String get(HttpServerRequest r, String key) {
            return r == null ? null : r.getHeader(key);
          }
        });
    String method = req.method().name();
    return tracer.spanBuilder(method + " " + req.path()).setParent(parent)
        .setSpanKind(SpanKind.SERVER)
        .setAttribute("http.request.method", method)
        .setAttribute("url.path", req.path())
        .startSpan();
  }

  /** Ends a {@link #serverSpan} with the response's status; an error if 5xx or never answered. */
  public void endServerSpan(Span span, HttpServerResponse res, boolean unanswered) {
    int status = res.getStatusCode();
    span.setAttribute("http.response.status_code", status);
    if (status >= 500 || unanswered) {
      span.setStatus(StatusCode.ERROR);
    }
    span.end();
  }

  /**
   * Makes the request's span (null: none) the parent of the tools/call spans it carries: puts its
   * W3C traceparent into each tools/call's {@code params._meta} (the MCP place for trace context),
   * unless the client already put one there.
   */
  public void propagate(Span span, io.vertx.core.json.JsonArray messages) {
    if (span == null || !span.getSpanContext().isValid()) {
      return;
    }
    String traceparent = CallSpan.traceparent(span.getSpanContext());
    for (Object m : messages) {
      if (m instanceof JsonObject msg && "tools/call".equals(msg.getString("method"))
          && msg.getValue("params") instanceof JsonObject params) {
        Object meta = params.getValue("_meta");
        if (meta == null) {
          params.put("_meta", new JsonObject().put("traceparent", traceparent));
        } else if (meta instanceof JsonObject j && !j.containsKey("traceparent")) {
          j.put("traceparent", traceparent);
        }
      }
    }
  }

  /**
   * The span of one tools/call, a child of {@code params._meta.traceparent} when there is one.
   *
   * @param connectionId the call's connectionId argument, or null
   */
  public CallSpan toolCall(String tool, String connectionId, String principal, String sessionId, Object requestId,
      JsonObject meta) {
    if (tracer == null) {
      return CallSpan.NONE;
    }
    return CallSpan.start(tracer, otel, tool, connectionId, principal, sessionId, requestId, meta);
  }

  private static boolean present(Map<String, String> env, String key) {
    String v = env.get(key);
    return v != null && !v.isBlank();
  }

  /** OTEL_FOO_BAR → otel.foo.bar, for an environment other than the process's own (tests). */
  private static Map<String, String> asProperties(Map<String, String> env) {
    Map<String, String> out = new java.util.HashMap<>();
    env.forEach((k, v) -> {
      if (k.startsWith("OTEL_")) {
        out.put(k.toLowerCase(Locale.ROOT).replace('_', '.'), v);
      }
    });
    return out;
  }
}
