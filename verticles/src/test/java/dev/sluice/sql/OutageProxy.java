package dev.sluice.sql;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A loopback TCP relay in front of a real database so a test can take "the server" down and bring
 * it back on the same port without touching the shared service.
 */
public final class OutageProxy {

  private final Vertx vertx;
  private final String host;
  private final int targetPort;
  private final NetClient client;
  private final List<NetSocket> open = new ArrayList<>();
  private NetServer server;
  private int port;

  public OutageProxy(Vertx vertx, String host, int targetPort) {
    this.vertx = vertx;
    this.host = host;
    this.targetPort = targetPort;
    this.client = vertx.createNetClient();
  }

  public int port() {
    return port;
  }

  public void up() throws Exception {
    server = vertx.createNetServer().connectHandler(front -> {
      front.pause();
      client.connect(targetPort, host).onSuccess(back -> {
        synchronized (open) {
          open.add(front);
          open.add(back);
        }
        front.pipeTo(back);
        back.pipeTo(front);
        front.resume();
      }).onFailure(err -> front.close());
    });
    port = server.listen(port, "127.0.0.1").await(5, TimeUnit.SECONDS).actualPort();
  }

  /** Stops listening and cuts every relayed connection, like a server crash. */
  public void down() throws Exception {
    server.close().await(5, TimeUnit.SECONDS);
    List<Future<Void>> closing = new ArrayList<>();
    synchronized (open) {
      open.forEach(s -> closing.add(s.close()));
      open.clear();
    }
    Future.join(closing).await(5, TimeUnit.SECONDS);
  }

  public void close() throws Exception {
    client.close().await(5, TimeUnit.SECONDS);
  }
}
