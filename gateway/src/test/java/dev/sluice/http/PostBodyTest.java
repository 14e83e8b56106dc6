package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.config.ServerConfig;
import dev.sluice.mcp.ProtocolRevision;
import dev.sluice.testing.McpHttpClient;
import dev.sluice.testing.TestGateway;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the MCP POST's body is read now that it skips the web router (PostBody): whole in one
 * chunk or in many, the size limit (server.max_body_bytes, 413) declared or chunked,
 * Expect: 100-continue, and the spellings of the path the router used to match.
 */
class PostBodyTest {

  static TestGateway gw;

  @BeforeAll
  static void start(@TempDir Path dir) throws Exception {
    gw = TestGateway.start(TestGateway.config(ServerConfig.defaults(), List.of(), dir), null);
  }

  @AfterAll
  static void stop() throws Exception {
    gw.close();
  }

  private static java.net.URI uri() {
    return java.net.URI.create(gw.url());
  }

  private static String initialize() {
    return McpHttpClient.request(1, "initialize", new JsonObject().put("protocolVersion", ProtocolRevision.LATEST)
        .put("capabilities", new JsonObject()).put("clientInfo", new JsonObject().put("name", "t").put("version", "1")))
        .encode();
  }

  private static String head(String path, String... headers) {
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + uri().getPort()
        + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close"
        + (headers.length == 0 ? "" : "\r\n" + String.join("\r\n", headers));
  }

  private static int status(String answer) {
    return Integer.parseInt(answer.substring(9, 12));
  }

  @Test
  void aBodyInManyPiecesIsReadWhole() throws Exception {
    byte[] body = initialize().getBytes(StandardCharsets.UTF_8);
    byte[][] pieces = new byte[body.length / 7 + 1][];
    for (int i = 0; i < pieces.length; i++) {
      pieces[i] = Arrays.copyOfRange(body, i * 7, Math.min(body.length, i * 7 + 7));
    }
    String answer = RawHttp.send(uri(), head("/mcp", "Content-Length: " + body.length), 2, pieces);
    assertEquals(200, status(answer), answer);
    assertTrue(answer.contains("\"protocolVersion\":\"" + ProtocolRevision.LATEST + "\""), answer);
    String chunked = RawHttp.send(uri(), head("/mcp", "Transfer-Encoding: chunked"), 2,
        chunk(Arrays.copyOfRange(body, 0, 10)), chunk(Arrays.copyOfRange(body, 10, body.length)), chunk(new byte[0]));
    assertEquals(200, status(chunked), chunked);
    assertTrue(chunked.contains("\"serverInfo\""), chunked);
  }

  @Test
  void aBodyOverTheLimitIs413WhetherDeclaredOrNot() throws Exception {
    long limit = ServerConfig.defaults().maxBodyBytes();
    // declared: refused on the headers, before a byte of the body
    String declared = RawHttp.send(uri(), head("/mcp", "Content-Length: " + (limit + 1)), 0,
        "{\"jsonrpc\":".getBytes(StandardCharsets.UTF_8));
    assertEquals(413, status(declared), declared);
    assertTrue(declared.contains("server.max_body_bytes (" + limit + " bytes)"), declared);
    assertTrue(declared.contains("\"code\":-32000"), declared);
    // chunked: refused once it passes the limit
    byte[] mib = new byte[1 << 20];
    Arrays.fill(mib, (byte) ' ');
    byte[][] chunks = new byte[(int) (limit / mib.length) + 2][];
    Arrays.fill(chunks, chunk(mib));
    String streamed = RawHttp.send(uri(), head("/mcp", "Transfer-Encoding: chunked"), 0, chunks);
    assertEquals(413, status(streamed), streamed);
    // exactly at the limit is read (and is not JSON-RPC: a parse error, not a size error)
    byte[] atLimit = new byte[(int) limit];
    Arrays.fill(atLimit, (byte) ' ');
    byte[] init = initialize().getBytes(StandardCharsets.UTF_8);
    System.arraycopy(init, 0, atLimit, 0, init.length);
    String fits = RawHttp.send(uri(), head("/mcp", "Content-Length: " + limit), 0, atLimit);
    assertEquals(200, status(fits), fits.substring(0, Math.min(300, fits.length())));
  }

  @Test
  void aClientStillSendingItsOversizedBodyReadsThe413() throws Exception {
    // the whole body, at full speed, after the server has answered: closing on its unread bytes
    // would reset the connection and the client could lose the answer
    long limit = ServerConfig.defaults().maxBodyBytes();
    byte[] whole = new byte[(int) limit + 1024];
    Arrays.fill(whole, (byte) ' ');
    for (int i = 0; i < 3; i++) {
      String answer = RawHttp.send(uri(), head("/mcp", "Content-Length: " + whole.length), 0, whole);
      assertEquals(413, status(answer), answer);
    }
  }

  @Test
  void expectContinueIsAnsweredAndOtherExpectationsAre417() throws Exception {
    byte[] body = initialize().getBytes(StandardCharsets.UTF_8);
    String answer = RawHttp.send(uri(), head("/mcp", "Content-Length: " + body.length, "Expect: 100-continue"),
        50, body);
    assertTrue(answer.startsWith("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK"), answer);
    String refused = RawHttp.send(uri(), head("/mcp", "Content-Length: " + body.length, "Expect: something"),
        0, body);
    assertEquals(417, status(refused), refused);
  }

  @Test
  void thePathIsMatchedAsTheRouterMatchedIt() throws Exception {
    byte[] body = initialize().getBytes(StandardCharsets.UTF_8);
    for (String path : List.of("/mcp", "/mcp/", "/mcp?x=1", "//mcp", "/a/../mcp")) {
      String answer = RawHttp.send(uri(), head(path, "Content-Length: " + body.length), 0, body);
      assertEquals(200, status(answer), path + ": " + answer);
    }
    for (String path : List.of("/mcpx", "/mcp/x", "/MCP")) {
      String answer = RawHttp.send(uri(), head(path, "Content-Length: " + body.length), 0, body);
      assertFalse(status(answer) == 200, path + ": " + answer);
    }
    assertTrue(HttpVerticle.isMcpPath("/mcp") && HttpVerticle.isMcpPath("/./mcp/") && !HttpVerticle.isMcpPath("/"));
  }

  @Test
  void aBodyNotCompleteByItsDeadlineIs408AndItsConnectionCloses(@TempDir Path dir) throws Exception {
    try (TestGateway quick = TestGateway.start(TestGateway.config(ServerConfig.defaults().withBodyTimeoutMs(400),
        List.of(), dir), null)) {
      java.net.URI at = java.net.URI.create(quick.url());
      byte[] body = initialize().getBytes(StandardCharsets.UTF_8);
      String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + at.getPort() + "\r\nContent-Type: application/json"
          + "\r\nAccept: application/json, text/event-stream\r\nContent-Length: " + body.length;
      long started = System.nanoTime();
      // half the body, then silence: the answer comes, and the connection closes (send reads to EOF)
      String stalled = RawHttp.send(at, head, 0, Arrays.copyOf(body, body.length / 2));
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      assertEquals(408, status(stalled), stalled);
      assertTrue(stalled.contains("server.body_timeout_ms (400 ms)"), stalled);
      assertTrue(tookMs >= 400 && tookMs < 5_000, "answered after " + tookMs + " ms");
      // a body trickled in within the deadline is read
      byte[][] pieces = {Arrays.copyOfRange(body, 0, 20), Arrays.copyOfRange(body, 20, body.length)};
      String trickled = RawHttp.send(at, head + "\r\nConnection: close", 100, pieces);
      assertEquals(200, status(trickled), trickled);
    }
  }

  /** Reads one answer (head and Content-Length body) from {@code in}, leaving the connection open. */
  private static String readAnswer(java.io.InputStream in) throws java.io.IOException {
    java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
    while (true) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      got.write(b);
      String text = got.toString(StandardCharsets.UTF_8);
      int headEnd = text.indexOf("\r\n\r\n");
      if (headEnd >= 0) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?i)content-length: (\\d+)").matcher(text);
        int length = m.find() ? Integer.parseInt(m.group(1)) : 0;
        if (got.size() >= headEnd + 4 + length) {
          break;
        }
      }
    }
    return got.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aClientThatSendsTheRestOfItsRefusedBodyIsNotResetUnderThe413() throws Exception {
    // the client reads the 413 first, then (as a client that did not look would) sends its body:
    // the server reads and drops it, and closes once it has all come; closing at once reset the
    // connection under the client, which may then lose the answer
    long limit = ServerConfig.defaults().maxBodyBytes();
    int declared = (int) limit + (2 << 20);
    try (java.net.Socket s = new java.net.Socket(uri().getHost(), uri().getPort())) {
      s.setSoTimeout(10_000);
      java.io.OutputStream out = s.getOutputStream();
      out.write(("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + uri().getPort() + "\r\nContent-Type: application/json"
          + "\r\nAccept: application/json, text/event-stream\r\nContent-Length: " + declared + "\r\n\r\n")
          .getBytes(StandardCharsets.UTF_8));
      out.flush();
      String answer = readAnswer(s.getInputStream());
      assertEquals(413, status(answer), answer);
      assertTrue(answer.toLowerCase(java.util.Locale.ROOT).contains("connection: close"), answer);
      byte[] piece = new byte[256 * 1024];
      Arrays.fill(piece, (byte) ' ');
      for (int sent = 0; sent < declared; sent += piece.length) {
        Thread.sleep(5);
        out.write(piece, 0, Math.min(piece.length, declared - sent)); // throws if the server reset us
        out.flush();
      }
      assertEquals(-1, s.getInputStream().read(), "the server closes once the body is in");
    }
  }

  @Test
  void theRestOfARefusedBodyIsWaitedForOnlySoLongAndSoMuch(@TempDir Path dir) throws Exception {
    try (TestGateway quick = TestGateway.start(TestGateway.config(ServerConfig.defaults().withBodyTimeoutMs(400),
        List.of(), dir), null)) {
      java.net.URI at = java.net.URI.create(quick.url());
      String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + at.getPort() + "\r\nContent-Type: application/json"
          + "\r\nAccept: application/json, text/event-stream\r\nContent-Length: " + (1L << 40) + "\r\n\r\n";
      // a client that stops sending: closed after the linger (here body_timeout_ms, 400 ms)
      try (java.net.Socket s = new java.net.Socket(at.getHost(), at.getPort())) {
        s.setSoTimeout(10_000);
        s.getOutputStream().write(head.getBytes(StandardCharsets.UTF_8));
        long started = System.nanoTime();
        assertEquals(413, status(readAnswer(s.getInputStream())));
        assertEquals(-1, s.getInputStream().read());
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertTrue(tookMs >= 300 && tookMs < 5_000, "closed after " + tookMs + " ms");
      }
    }
    // a client that sends without end, to the default gateway (which would wait 5 s): cut off once
    // it has sent a few megabytes more than PostBody.LINGER_BYTES, not when the time is up
    String head = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + uri().getPort() + "\r\nContent-Type: application/json"
        + "\r\nAccept: application/json, text/event-stream\r\nContent-Length: " + (1L << 40) + "\r\n\r\n";
    try (java.net.Socket s = new java.net.Socket(uri().getHost(), uri().getPort())) {
      s.setSoTimeout(10_000);
      java.io.OutputStream out = s.getOutputStream();
      out.write(head.getBytes(StandardCharsets.UTF_8));
      assertEquals(413, status(readAnswer(s.getInputStream())));
      byte[] piece = new byte[64 * 1024];
      long sent = 0;
      long started = System.nanoTime();
      try {
        while (System.nanoTime() - started < 10_000_000_000L) {
          out.write(piece);
          sent += piece.length;
        }
      } catch (java.io.IOException cutOff) {
        // expected
      }
      long tookMs = (System.nanoTime() - started) / 1_000_000;
      assertTrue(tookMs < PostBody.LINGER_MS - 1_000, "still reading after " + tookMs + " ms and " + sent + " bytes");
      assertTrue(sent < PostBody.LINGER_BYTES + (64L << 20), "read " + sent + " bytes of a refused body");
    }
  }

  private static byte[] chunk(byte[] data) {
    byte[] head = (Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[head.length + data.length + 2];
    System.arraycopy(head, 0, out, 0, head.length);
    System.arraycopy(data, 0, out, head.length, data.length);
    out[out.length - 2] = '\r';
    out[out.length - 1] = '\n';
    return out;
  }
}
