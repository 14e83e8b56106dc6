package dev.sluice.http;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.util.function.IntConsumer;

/**
 * Reads a request body of at most {@code limit} bytes, for the MCP POST that the web router no
 * longer carries (see HttpVerticle): a body that arrives in one chunk, as a tool call's few hundred
 * bytes do, is handed on as Vert.x delivered it, with no second buffer; a larger one is joined. A
 * declared Content-Length over the limit is refused before anything is read; a chunked body as
 * soon as it passes the limit; the rest is read and dropped before the connection closes
 * ({@link #closeAfterRest}). {@code Expect: 100-continue} is
 * answered as the web router's body handler answered it. A body still incomplete at its deadline
 * ({@link InFlight}) is refused too, so a client that trickles bytes or stops halfway holds neither
 * the buffer nor the connection.
 */
final class PostBody implements Handler<Buffer> {

  /** The most of a refused body that is read and dropped before its connection closes anyway. */
  static final long LINGER_BYTES = 8L << 20;
  /** The longest a refused body's rest is waited for (and never longer than server.body_timeout_ms). */
  static final long LINGER_MS = 5_000;
  /** A refused body's rest that stops arriving for this long is not waited for any more. */
  static final long LINGER_IDLE_MS = 1_000;

  /** A buffer joining several chunks starts no larger than this, whatever Content-Length claims. */
  static final int FIRST_JOIN_BYTES = 64 * 1024;

  private final long limit;
  private final int declared;
  private final Handler<Buffer> whole;
  private final IntConsumer refuse;
  private final InFlight inFlight;
  private Buffer first;
  private Buffer joined;
  private long size;
  private boolean done;
  // the in-flight list's links: oldest first
  private PostBody prev;
  private PostBody next;
  private boolean linked;
  private long startedMs;

  private PostBody(long limit, int declared, InFlight inFlight, Handler<Buffer> whole, IntConsumer refuse) {
    this.limit = limit;
    this.declared = declared;
    this.inFlight = inFlight;
    this.whole = whole;
    this.refuse = refuse;
  }

  /**
   * Calls {@code whole} with the body once it has all arrived, or instead {@code refuse} once with
   * the status to answer: 413 (over the limit), 417 (an Expect other than 100-continue) or 408 (not
   * complete by the deadline of {@code inFlight}).
   */
  static void read(HttpServerRequest req, long limit, InFlight inFlight, Handler<Buffer> whole, IntConsumer refuse) {
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
    PostBody body = new PostBody(limit, (int) Math.max(0, declared), inFlight, whole, refuse);
    inFlight.add(body);
    req.handler(body);
    req.endHandler(v -> body.end());
    // the connection closed before the body ended: nothing to answer, nothing to keep
    req.exceptionHandler(e -> body.stop());
  }

  /**
   * Closes the connection of {@code req}, whose body was refused for its size, once the rest of
   * that body has arrived: read and dropped, for at most {@link #LINGER_MS} (and never longer than
   * {@code bodyTimeoutMs}, server.body_timeout_ms) and {@link #LINGER_BYTES}, and only while it
   * keeps coming ({@link #LINGER_IDLE_MS}). Closing while bytes still arrive makes the kernel
   * answer them with a reset, and a client still sending may then get "connection reset" instead
   * of the 413 it was sent (web servers' "lingering close").
   */
  static void closeAfterRest(HttpServerRequest req, Vertx vertx, long bodyTimeoutMs) {
    if (req.isEnded()) {
      req.connection().close();
      return;
    }
    new Linger(req.connection(), vertx, Math.min(LINGER_MS, bodyTimeoutMs)).readRest(req);
  }

  /** The rest of one refused body, read and dropped until it ends or a bound is reached. */
  private static final class Linger {
    private final HttpConnection conn;
    private final Vertx vertx;
    private final long deadlineMs;
    private final long timer;
    private long bytesLeft = LINGER_BYTES;
    /** Since the last look: a client that stopped sending (one waiting for the answer) is not waited for. */
    private long bytesLately;

    Linger(HttpConnection conn, Vertx vertx, long lingerMs) {
      this.conn = conn;
      this.vertx = vertx;
      this.deadlineMs = System.currentTimeMillis() + lingerMs;
      this.timer = vertx.setPeriodic(Math.max(1, Math.min(LINGER_IDLE_MS, lingerMs)), id -> look());
    }

    void readRest(HttpServerRequest req) {
      req.handler(chunk -> {
        bytesLately += chunk.length();
        bytesLeft -= chunk.length();
        if (bytesLeft < 0) {
          close();
        }
      });
      req.endHandler(v -> close());
      req.exceptionHandler(e -> vertx.cancelTimer(timer));
    }

    private void look() {
      if (bytesLately == 0 || System.currentTimeMillis() >= deadlineMs) {
        close();
      }
      bytesLately = 0;
    }

    private void close() {
      vertx.cancelTimer(timer);
      conn.close();
    }
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
    if (done) {
      return;
    }
    size += chunk.length();
    if (size > limit) {
      stop();
      refuse.accept(413);
      return;
    }
    if (first == null) {
      first = chunk;
      return;
    }
    if (joined == null) {
      joined = Buffer.buffer((int) Math.min(FIRST_JOIN_BYTES, Math.max(declared, size))).appendBuffer(first);
    }
    joined.appendBuffer(chunk);
  }

  private void end() {
    if (!done) {
      Buffer body = joined != null ? joined : first != null ? first : Buffer.buffer();
      stop();
      whole.handle(body);
    }
  }

  /** Reads nothing more and lets go of what it read. */
  private void stop() {
    done = true;
    first = null;
    joined = null;
    inFlight.remove(this);
  }

  private void timedOut() {
    if (!done) {
      stop();
      refuse.accept(408);
    }
  }

  /**
   * The bodies one event loop is still reading, oldest first (a linked list through the bodies
   * themselves: nothing allocated per request), so the ones past their deadline are found at the
   * front by a periodic {@link #expire}.
   */
  static final class InFlight {
    private final long timeoutMs;
    private PostBody head;
    private PostBody tail;

    InFlight(long timeoutMs) {
      this.timeoutMs = timeoutMs;
    }

    /** How often {@link #expire} should run: a body is refused at most a quarter late. */
    long sweepEveryMs() {
      return Math.max(25, Math.min(1_000, timeoutMs / 4));
    }

    private void add(PostBody b) {
      b.startedMs = System.currentTimeMillis();
      b.prev = tail;
      if (tail == null) {
        head = b;
      } else {
        tail.next = b;
      }
      tail = b;
      b.linked = true;
    }

    private void remove(PostBody b) {
      if (!b.linked) {
        return;
      }
      if (b.prev == null) {
        head = b.next;
      } else {
        b.prev.next = b.next;
      }
      if (b.next == null) {
        tail = b.prev;
      } else {
        b.next.prev = b.prev;
      }
      b.prev = null;
      b.next = null;
      b.linked = false;
    }

    /** Refuses (408) every body read for {@code timeoutMs} or longer. */
    void expire(long nowMs) {
      while (head != null && nowMs - head.startedMs >= timeoutMs) {
        PostBody late = head;
        remove(late);
        late.timedOut();
      }
    }
  }
}
