package dev.sluice.engine.postgres;

import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback TCP relay in front of the real server that counts the client's round trips: each
 * time the client sends after an answer was delivered to it. A client that writes several messages
 * without waiting (pipelining) sends them before any answer can reach it; the relay holds every
 * answer back for {@link #HOLD_MS}, so those writes, microseconds apart, always arrive first and
 * count once. A client that waits cannot send before the answer is delivered, so no wait is missed.
 */
final class FlightCountingRelay {

  /** How long answers are held: far longer than the gap between two pipelined writes. */
  static final long HOLD_MS = 10;

  private final Vertx vertx;
  private final NetClient client;
  private final AtomicInteger flights = new AtomicInteger();
  private NetServer server;

  FlightCountingRelay(Vertx vertx) {
    this.vertx = vertx;
    this.client = vertx.createNetClient();
  }

  /** Listens on a free loopback port in front of {@code host:port}; returns the relay's port. */
  int start(String host, int port) throws Exception {
    server = vertx.createNetServer().connectHandler(front -> {
      front.pause();
      client.connect(port, host).onSuccess(back -> {
        // both sockets and the timers run on this connection's event loop: the flag needs no lock
        boolean[] answered = {true};
        front.handler(buf -> {
          if (answered[0]) {
            flights.incrementAndGet();
            answered[0] = false;
          }
          back.write(buf);
        });
        // equal delays fire in order, so the stream keeps its order
        back.handler(buf -> vertx.setTimer(HOLD_MS, t -> {
          answered[0] = true;
          front.write(buf);
        }));
        front.closeHandler(v -> back.close());
        back.closeHandler(v -> vertx.setTimer(HOLD_MS * 2, t -> front.close()));
        front.resume();
      }).onFailure(err -> front.close());
    });
    return server.listen(0, "127.0.0.1").await(5, TimeUnit.SECONDS).actualPort();
  }

  int flights() {
    return flights.get();
  }

  void stop() throws Exception {
    server.close().await(5, TimeUnit.SECONDS);
    client.close().await(5, TimeUnit.SECONDS);
  }
}
