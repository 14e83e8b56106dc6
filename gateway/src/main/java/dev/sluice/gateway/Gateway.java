package dev.sluice.gateway;

import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.http.HttpVerticle;
import dev.sluice.mcp.McpFeatures;
import dev.sluice.mcp.SessionShardVerticle;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.tools.ConnectionDirectory;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The composition root: one running gateway node. Deploys the executors, the session shards and
 * the HTTP verticles, in that order, and undeploys them on {@link #stop()}.
 */
public final class Gateway {

  public static final String VERSION = Gateway.class.getPackage().getImplementationVersion() != null
      ? Gateway.class.getPackage().getImplementationVersion() : "0.1.0-SNAPSHOT";

  private final SluiceConfig config;
  private final Vertx vertx;
  private final boolean ownsVertx;
  private final String nodeId;
  private final GatewayMetrics metrics = new GatewayMetrics();
  private final ToolRegistry tools;
  private final McpFeatures features;
  private final ConnectionDirectory connections;
  private final long startedAt = System.currentTimeMillis();
  private final int shards;
  private int port = -1;

  private Gateway(SluiceConfig config, Vertx vertx, boolean ownsVertx, Consumer<McpFeatures> extra) {
    this.config = config;
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.nodeId = HexFormat.of().formatHex(SecureRandom.getSeed(4));
    this.shards = Math.max(1, Runtime.getRuntime().availableProcessors());
    this.connections = new ConnectionDirectory(vertx, config.connections());
    this.tools = new ToolRegistry();
    this.features = new McpFeatures("sluice", VERSION, Instructions.TEXT, tools);
    ProductTools.register(tools, connections);
    if (extra != null) {
      extra.accept(features);
    }
  }

  /** Starts a node on its own Vert.x instance. */
  public static Future<Gateway> start(SluiceConfig config) {
    return start(config, Vertx.vertx(new VertxOptions()), true, null);
  }

  /**
   * Starts a node; {@code extra} may register more tools, resources or prompts before the first
   * session (the conformance fixtures use it; the product does not).
   */
  public static Future<Gateway> start(SluiceConfig config, Vertx vertx, boolean ownsVertx,
      Consumer<McpFeatures> extra) {
    Gateway g = new Gateway(config, vertx, ownsVertx, extra);
    return g.deploy().map(v -> g);
  }

  private Future<Void> deploy() {
    AtomicInteger shardIndex = new AtomicInteger();
    SessionShardVerticle.SessionSettings settings = new SessionShardVerticle.SessionSettings(
        config.server().sessionIdleTimeoutMs(), config.server().sseReplayEvents(),
        Math.max(1, config.server().maxSessions() / shards), config.server().slowCallMs());
    return prepareDemo()
        .compose(v -> Executors.deploy(vertx, config))
        .compose(v -> vertx.deployVerticle(
            () -> new SessionShardVerticle(nodeId, shardIndex.getAndIncrement(), features, metrics, settings),
            new DeploymentOptions().setInstances(shards)))
        .compose(v -> deployHttp());
  }

  /**
   * With no configured connections the demo database is generated on first start (a one-time
   * write of ~135k rows, so it runs on a worker thread, before any read-only worker opens it).
   */
  private Future<Void> prepareDemo() {
    if (!config.demo()) {
      return Future.succeededFuture();
    }
    return vertx.executeBlocking(() -> DemoDataset.ensureSqlite(config.stateDir())).mapEmpty();
  }

  /**
   * One HTTP verticle per event loop, all sharing one listening port. Vert.x shares a port only
   * among servers asking for the same number, and port 0 would give each instance its own, so a
   * request for port 0 first picks a concrete free port (retried if another process wins it).
   */
  private Future<Void> deployHttp() {
    return deployHttp(config.server().port() == 0 ? 3 : 0);
  }

  private Future<Void> deployHttp(int retries) {
    int wanted = config.server().port() == 0 ? FreePort.find(config.server().host()) : config.server().port();
    return vertx.deployVerticle(() -> newHttp(wanted), new DeploymentOptions().setInstances(shards))
        .map(id -> {
          port = wanted;
          return (Void) null;
        })
        .recover(err -> retries > 0 && err instanceof java.net.BindException
            ? deployHttp(retries - 1) : Future.failedFuture(err));
  }

  private HttpVerticle newHttp(int p) {
    return new HttpVerticle(config.server().withPort(p), nodeId, shards, metrics, this::health);
  }

  /** /health: liveness plus each connection's status. */
  public Future<JsonObject> health() {
    return connections.statuses().map(list -> {
      JsonArray conns = new JsonArray();
      boolean allUp = true;
      for (JsonObject s : list) {
        conns.add(new JsonObject().put("id", s.getString("connectionId")).put("status", s.getString("status"))
            .put("error", s.getString("error")));
        allUp &= "up".equals(s.getString("status"));
      }
      return new JsonObject()
          .put("status", allUp ? "ok" : "degraded")
          .put("version", VERSION)
          .put("nodeId", nodeId)
          .put("uptimeMs", System.currentTimeMillis() - startedAt)
          .put("sessions", metrics.openSessions())
          .put("connections", conns);
    });
  }

  public int port() {
    return port;
  }

  public String url() {
    String host = config.server().host();
    String shown = host.contains(":") ? "[" + host + "]" : host;
    return "http://" + shown + ":" + port + "/mcp";
  }

  public Vertx vertx() {
    return vertx;
  }

  public String nodeId() {
    return nodeId;
  }

  public ToolRegistry tools() {
    return tools;
  }

  public McpFeatures features() {
    return features;
  }

  public int shards() {
    return shards;
  }

  public GatewayMetrics metrics() {
    return metrics;
  }

  /** Undeploys everything (SQLite workers are killed by their executor's stop). */
  public Future<Void> stop() {
    Future<Void> undeployed = Future.all(vertx.deploymentIDs().stream().map(vertx::undeploy).toList())
        .mapEmpty();
    return undeployed.eventually(() -> {
      metrics.close();
      return ownsVertx ? vertx.close() : Future.succeededFuture();
    });
  }
}
