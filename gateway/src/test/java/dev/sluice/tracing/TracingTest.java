package dev.sluice.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingTest {

  @Test
  void offUnlessAnOtlpEndpointIsSet() {
    assertFalse(Tracing.fromEnvironment(Map.of()).enabled());
    assertFalse(Tracing.fromEnvironment(Map.of("OTEL_SERVICE_NAME", "x")).enabled(), "a name alone exports nothing");
    assertFalse(Tracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1",
        "OTEL_SDK_DISABLED", "true")).enabled());
    assertFalse(Tracing.fromEnvironment(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1",
        "OTEL_TRACES_EXPORTER", "none")).enabled());
    assertSame(CallSpan.NONE, Tracing.fromEnvironment(Map.of()).toolCall("t", null, null, null, 1, null));
  }

  @Test
  void onlyHttpProtobufIsBuiltIn() {
    assertEquals("OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf (the only OTLP protocol built in), got \"grpc\"",
        assertThrows(IllegalArgumentException.class, () -> Tracing.fromEnvironment(Map.of(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"))).getMessage());
  }
}
