package dev.sluice.http;

import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.function.IntConsumer;

/**
 * Reads a request body of at most {@code limit} bytes, for the MCP POST that the web router no
 * longer carries (see HttpVerticle): a body that arrives in one chunk, as a tool call's few hundred
 * bytes do, is handed on as Vert.x delivered it, with no second buffer; a larger one is joined. A
 * declared Content-Length over the limit is refused before anything is read; a chunked body as
 * soon as it passes the limit, and the rest of it is ignored. {@code Expect: 100-continue} is
 * answered as the web router's body handler answered it.
 */
final class PostBody implements Handler<Buffer> {

  private final long limit;
  private final int declared;
  private final Handler<Buffer> whole;
  private final IntConsumer refuse;
  private Buffer first;
  private Buffer joined;
  private long size;
  private boolean refused;

  private PostBody(long limit, int declared, Handler<Buffer> whole, IntConsumer refuse) {
    this.limit = limit;
    this.declared = declared;
    this.whole = whole;
    this.refuse = refuse;
  }

  /**
   * Calls {@code whole} with the body once it has all arrived, or instead {@code refuse} once with
   * the status to answer: 413 (over the limit) or 417 (an Expect other than 100-continue).
   */
  static void read(HttpServerRequest req, long limit, Handler<Buffer> whole, IntConsumer refuse) {
    long declared = contentLength(req);
    if (declared > limit) {
      refuse.accept(413);
      return;
    }
    String expect = req.getHeader(HttpHeaders.EXPECT);
    if (expect != null) {
      // curl asks before sending a body over 1 KB; HTTP/1.0 clients' expectations are ignored (RFC 9110)
      if (!"100-continue".equalsIgnoreCase(expect.trim())) {
        refuse.accept(417);
        return;
      }
      if (req.version() != HttpVersion.HTTP_1_0) {
        req.response().writeContinue();
      }
    }
    PostBody body = new PostBody(limit, (int) Math.max(0, declared), whole, refuse);
    req.handler(body);
    req.endHandler(v -> body.end());
  }

  /** The declared length, or -1 (chunked; Netty already refused a malformed one with 400). */
  private static long contentLength(HttpServerRequest req) {
    String v = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (v == null) {
      return -1;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public void handle(Buffer chunk) {
    if (refused) {
      return;
    }
    size += chunk.length();
    if (size > limit) {
      refused = true;
      first = null;
      joined = null;
      refuse.accept(413);
      return;
    }
    if (first == null) {
      first = chunk;
      return;
    }
    if (joined == null) {
      joined = Buffer.buffer((int) Math.max(declared, size)).appendBuffer(first);
    }
    joined.appendBuffer(chunk);
  }

  private void end() {
    if (!refused) {
      whole.handle(joined != null ? joined : first != null ? first : Buffer.buffer());
    }
  }
}
