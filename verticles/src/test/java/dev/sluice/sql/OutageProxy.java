package dev.sluice.sql;

import dev.sluice.config.ConnectionConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopback TCP relay in front of a real database so a test can take "the server" down and bring
 * it back on the same port without touching the shared service.
 */
public final class OutageProxy {

  private static final Pattern HOST_PORT = Pattern.compile("@([^:/@]+):(\\d+)/");

  private final Vertx vertx;
  private final String host;
  private final int targetPort;
  private final NetClient client;
  private final List<NetSocket> open = new ArrayList<>();
  private NetServer server;
  private boolean cut;
  private int port;

  public OutageProxy(Vertx vertx, String host, int targetPort) {
    this.vertx = vertx;
    this.host = host;
    this.targetPort = targetPort;
    this.client = vertx.createNetClient();
  }

  /** A relay (not yet up) in front of the server {@code direct}'s URL names. */
  public static OutageProxy inFrontOf(Vertx vertx, ConnectionConfig direct) {
    Matcher m = HOST_PORT.matcher(direct.url());
    if (!m.find()) {
      throw new IllegalArgumentException("no host:port in " + direct.url());
    }
    return new OutageProxy(vertx, m.group(1), Integer.parseInt(m.group(2)));
  }

  /** {@code direct} with its URL pointing at this relay, which must be up; every other setting kept. */
  public ConnectionConfig route(ConnectionConfig direct) {
    return new ConnectionConfig(direct.id(), direct.driver(),
        HOST_PORT.matcher(direct.url()).replaceFirst("@127.0.0.1:" + port + "/"), direct.path(), direct.user(),
        direct.password(), direct.description(), direct.poolSize(), direct.maxWaitQueue(), direct.queryTimeoutMs(),
        direct.maxRowsDefault(), direct.maxRowsCeiling(), direct.schemas(), direct.queue());
  }

  public int port() {
    return port;
  }

  public void up() throws Exception {
    synchronized (open) {
      cut = false;
    }
    server = vertx.createNetServer().connectHandler(front -> {
      front.pause();
      synchronized (open) {
        if (cut) {
          front.close();
          return;
        }
        open.add(front);
      }
      client.connect(targetPort, host).onSuccess(back -> {
        synchronized (open) {
          // cut while the relay was still dialling the server: this one never comes up
          if (cut) {
            back.close();
            front.close();
            return;
          }
          open.add(back);
        }
        front.pipeTo(back);
        back.pipeTo(front);
        front.resume();
      }).onFailure(err -> front.close());
    });
    port = server.listen(port, "127.0.0.1").await(5, TimeUnit.SECONDS).actualPort();
  }

  /**
   * Stops listening and cuts every relayed connection, like a server crash, including one the
   * relay had accepted but not yet joined to the server: it would otherwise come up after the cut.
   */
  public void down() throws Exception {
    List<Future<Void>> closing = new ArrayList<>();
    synchronized (open) {
      cut = true;
      open.forEach(s -> closing.add(s.close()));
      open.clear();
    }
    server.close().await(5, TimeUnit.SECONDS);
    Future.join(closing).await(5, TimeUnit.SECONDS);
  }

  public void close() throws Exception {
    client.close().await(5, TimeUnit.SECONDS);
  }
}
