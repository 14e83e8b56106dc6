package dev.sluice.tracing;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A loopback OTLP/HTTP trace receiver for tests: accepts {@code POST /v1/traces} with an
 * ExportTraceServiceRequest in protobuf and decodes the spans with a small wire-format reader
 * (field numbers from opentelemetry-proto's trace/v1 and common/v1 messages).
 */
final class OtlpReceiver implements AutoCloseable {

  /** One received span; ids in lower-case hex, attributes as String, Long, Double or Boolean. */
  record Received(String traceId, String spanId, String parentSpanId, String name, long startNanos, long endNanos,
      Map<String, Object> attributes, Map<String, Object> resource) {}

  private final HttpServer server;
  private final List<Received> spans = new ArrayList<>();
  private int requests;

  OtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/v1/traces", ex -> {
      byte[] body = ex.getRequestBody().readNBytes(16 * 1024 * 1024);
      try {
        List<Received> decoded = decodeRequest(body);
        synchronized (spans) {
          spans.addAll(decoded);
          requests++;
        }
        ex.getResponseHeaders().add("Content-Type", "application/x-protobuf");
        ex.sendResponseHeaders(200, -1);
      } catch (RuntimeException e) {
        ex.sendResponseHeaders(400, -1);
      } finally {
        ex.close();
      }
    });
    server.start();
  }

  String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  List<Received> spans() {
    synchronized (spans) {
      return List.copyOf(spans);
    }
  }

  /** Waits for a span named {@code name}. */
  Received await(String name, long timeoutMs) throws InterruptedException {
    long until = System.currentTimeMillis() + timeoutMs;
    while (System.currentTimeMillis() < until) {
      for (Received r : spans()) {
        if (r.name().equals(name)) {
          return r;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no span named \"" + name + "\" within " + timeoutMs + " ms; got " + spans().stream()
        .map(Received::name).toList() + " in " + requests + " requests");
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // ---- protobuf ---------------------------------------------------------------------------------

  static List<Received> decodeRequest(byte[] bytes) {
    List<Received> out = new ArrayList<>();
    for (Field rs : fields(bytes)) {
      if (rs.number == 1) { // ExportTraceServiceRequest.resource_spans
        Map<String, Object> resource = new LinkedHashMap<>();
        List<byte[]> scopes = new ArrayList<>();
        for (Field f : fields(rs.bytes)) {
          if (f.number == 1) { // ResourceSpans.resource
            for (Field a : fields(f.bytes)) {
              if (a.number == 1) {
                keyValue(a.bytes, resource);
              }
            }
          } else if (f.number == 2) { // ResourceSpans.scope_spans
            scopes.add(f.bytes);
          }
        }
        for (byte[] scope : scopes) {
          for (Field s : fields(scope)) {
            if (s.number == 2) { // ScopeSpans.spans
              out.add(span(s.bytes, resource));
            }
          }
        }
      }
    }
    return out;
  }

  private static Received span(byte[] bytes, Map<String, Object> resource) {
    String trace = "";
    String id = "";
    String parent = "";
    String name = "";
    long start = 0;
    long end = 0;
    Map<String, Object> attrs = new LinkedHashMap<>();
    for (Field f : fields(bytes)) {
      switch (f.number) {
        case 1 -> trace = HexFormat.of().formatHex(f.bytes);
        case 2 -> id = HexFormat.of().formatHex(f.bytes);
        case 4 -> parent = HexFormat.of().formatHex(f.bytes);
        case 5 -> name = new String(f.bytes, java.nio.charset.StandardCharsets.UTF_8);
        case 7 -> start = f.value;
        case 8 -> end = f.value;
        case 9 -> keyValue(f.bytes, attrs);
        default -> { }
      }
    }
    return new Received(trace, id, parent, name, start, end, attrs, resource);
  }

  private static void keyValue(byte[] bytes, Map<String, Object> into) {
    String key = null;
    Object value = null;
    for (Field f : fields(bytes)) {
      if (f.number == 1) {
        key = new String(f.bytes, java.nio.charset.StandardCharsets.UTF_8);
      } else if (f.number == 2) { // AnyValue
        for (Field v : fields(f.bytes)) {
          value = switch (v.number) {
            case 1 -> new String(v.bytes, java.nio.charset.StandardCharsets.UTF_8);
            case 2 -> v.value != 0;
            case 3 -> v.value;
            case 4 -> Double.longBitsToDouble(v.value);
            default -> value;
          };
        }
      }
    }
    if (key != null) {
      into.put(key, value);
    }
  }

  /** One field: its number and either a scalar (varint, fixed64, fixed32) or length-delimited bytes. */
  private record Field(int number, long value, byte[] bytes) {}

  private static List<Field> fields(byte[] b) {
    List<Field> out = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < b.length) {
      long tag = varint(b, pos);
      int number = (int) (tag >>> 3);
      switch ((int) (tag & 7)) {
        case 0 -> out.add(new Field(number, varint(b, pos), null));
        case 1 -> {
          out.add(new Field(number, ByteBuffer.wrap(b, pos[0], 8).order(ByteOrder.LITTLE_ENDIAN).getLong(), null));
          pos[0] += 8;
        }
        case 2 -> {
          int len = (int) varint(b, pos);
          byte[] sub = java.util.Arrays.copyOfRange(b, pos[0], pos[0] + len);
          pos[0] += len;
          out.add(new Field(number, 0, sub));
        }
        case 5 -> {
          out.add(new Field(number, ByteBuffer.wrap(b, pos[0], 4).order(ByteOrder.LITTLE_ENDIAN).getInt(), null));
          pos[0] += 4;
        }
        default -> throw new IllegalArgumentException("unsupported wire type in tag " + tag);
      }
    }
    return out;
  }

  private static long varint(byte[] b, int[] pos) {
    long result = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte x = b[pos[0]++];
      result |= (long) (x & 0x7f) << shift;
      if ((x & 0x80) == 0) {
        return result;
      }
    }
    throw new IllegalArgumentException("malformed varint");
  }
}
