package dev.sluice.gateway;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import dev.sluice.config.ClusterConfig;
import dev.sluice.mcp.McpBus;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import dev.sluice.config.SluiceConfig;
import dev.sluice.demo.DemoDataset;
import dev.sluice.semantic.DemoLayer;
import dev.sluice.http.HttpVerticle;
import dev.sluice.mcp.McpFeatures;
import dev.sluice.mcp.ToolInvocation;
import dev.sluice.mcp.stateless.NodeQueries;
import dev.sluice.mcp.stateless.StatelessHandler;
import dev.sluice.observability.ToolCallLog;
import dev.sluice.tasks.Tasks;
import dev.sluice.mcp.SessionShardVerticle;
import dev.sluice.mcp.tool.ToolRegistry;
import dev.sluice.observability.GatewayMetrics;
import dev.sluice.sql.pool.QueueMeters;
import dev.sluice.access.Principals;
import dev.sluice.approved.ApprovedCatalog;
import dev.sluice.approved.ApprovedQueryListTool;
import dev.sluice.approved.ExecuteApprovedQueryTool;
import dev.sluice.access.RateLimits;
import dev.sluice.access.TablePolicy;
import dev.sluice.audit.AuditTrail;
import dev.sluice.catalog.CatalogVerticle;
import dev.sluice.catalog.SnapshotStore;
import dev.sluice.state.StateStore;
import dev.sluice.state.StateStores;
import dev.sluice.ingest.IngestVerticle;
import dev.sluice.tools.CatalogAccess;
import dev.sluice.tools.ConnectionDirectory;
import dev.sluice.tools.DiscoverySource;
import dev.sluice.tools.SqlWriteTool;
import dev.sluice.wiki.WikiStore;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The composition root: one running gateway node. Deploys the executors, the catalog, the ingest
 * runner, the session shards and the HTTP verticles, in that order, and undeploys them on {@link #stop()}.
 */
public final class Gateway {

  private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);

  public static final String VERSION = Gateway.class.getPackage().getImplementationVersion() != null
      ? Gateway.class.getPackage().getImplementationVersion() : "0.1.0-SNAPSHOT";

  private final SluiceConfig config;
  private final Vertx vertx;
  private final boolean ownsVertx;
  private final String nodeId;
  private final GatewayMetrics metrics = new GatewayMetrics();
  private final AuditTrail audit;
  private final Principals principals;
  private final ApprovedCatalog approved;
  private final ToolRegistry tools;
  private final McpFeatures features;
  private final ConnectionDirectory connections;
  private final StateStore state;
  private final SnapshotStore snapshots;
  /** discover_data's dense lane: the embedding model and the vector cache (issue 20). */
  private final dev.sluice.discovery.Meaning meaning;
  private final long startedAt = System.currentTimeMillis();
  private final java.util.concurrent.atomic.AtomicBoolean draining = new java.util.concurrent.atomic.AtomicBoolean();
  /** Long 2026-07-28 calls as tasks, their records in the state store. */
  private final Tasks tasks;
  /** Queries of stateless calls on this node, for query_cancel from any of its event loops. */
  private final NodeQueries nodeQueries = new NodeQueries();
  /** Stateless calls in flight on this node, for the operator's console. */
  private final dev.sluice.mcp.stateless.NodeCalls nodeCalls;
  private final int shards;
  private int port = -1;

  private Gateway(SluiceConfig config, Vertx vertx, boolean ownsVertx, Consumer<McpFeatures> extra, String nodeId,
      dev.sluice.access.SharedWindows windows) {
    this.config = config;
    this.vertx = vertx;
    this.ownsVertx = ownsVertx;
    this.nodeId = nodeId != null ? nodeId : HexFormat.of().formatHex(SecureRandom.getSeed(4));
    this.shards = Math.max(1, Runtime.getRuntime().availableProcessors());
    this.nodeCalls = new dev.sluice.mcp.stateless.NodeCalls(vertx, this.nodeId);
    this.principals = new Principals(config);
    this.state = StateStores.create(vertx, config.state());
    this.snapshots = new SnapshotStore(state);
    this.tasks = new Tasks(vertx, state, this.nodeId);
    this.meaning = dev.sluice.discovery.Meaning.shipped(state);
    CatalogAccess catalog = new CatalogAccess(vertx, snapshots);
    this.connections = new ConnectionDirectory(vertx, config.connections(), principals,
        new RateLimits(config, metrics.registry(), windows), new TablePolicy(config, catalog));
    this.audit = AuditTrail.open(config.audit());
    metrics.auditCounters(audit, AuditTrail::written, AuditTrail::dropped);
    this.tools = new ToolRegistry();
    this.features = new McpFeatures("sluice", VERSION, Instructions.TEXT, tools)
        .viewer(dev.sluice.apps.ResultViewer.load());
    DiscoverySource discovery = new DiscoverySource(vertx, catalog, new WikiStore(state),
        config.connections());
    ProductTools.register(tools, connections, catalog, discovery);
    java.util.Set<String> connectionIds = new java.util.LinkedHashSet<>(
        config.connections().stream().map(c -> c.id()).toList());
    // a cluster reads the definitions `sluice approved push` put in the shared store; one node reads its directory
    this.approved = state.shared()
        ? new ApprovedCatalog(state, ApprovedCatalog.SHARED_AREA, "the shared state store", connectionIds, tools,
            connections)
        : new ApprovedCatalog(config.approvedDir(), connectionIds, tools, connections);
    tools.register(new ApprovedQueryListTool(approved, connections))
        .register(new ExecuteApprovedQueryTool(approved, connections));
    dev.sluice.semantic.SemanticLayers semantic = new dev.sluice.semantic.SemanticLayers(vertx, state, config.stateDir(),
        catalog);
    discovery.withSemantic(semantic);
    discovery.withMeaning(meaning);
    tools.register(new dev.sluice.semantic.SlReadSourceTool(connections, semantic))
        .register(new dev.sluice.semantic.SlQueryTool(connections, semantic));
    if (principals.anyWrites()) {
      // writes are off unless a principal was given some: otherwise the tool is not even listed
      tools.register(new SqlWriteTool(connections, audit, nodeId));
    }
    if (extra != null) {
      extra.accept(features);
    }
  }

  /**
   * Starts a node as a member of a Vert.x cluster (Hazelcast, TCP-IP members, no multicast). A
   * session lives on the node that created it; any node forwards requests for it over the
   * clustered event bus, and a session whose node is gone answers 404.
   */
  public static Future<Gateway> startClustered(SluiceConfig config) {
    ClusterConfig cluster = config.cluster();
    String nodeId = cluster.resolvedNodeId();
    HazelcastClusterManager manager = new HazelcastClusterManager(HazelcastSetup.config(cluster));
    return Vertx.builder()
        .with(vertxOptions(config).setEventBusOptions(new io.vertx.core.eventbus.EventBusOptions()
            .setHost(cluster.host()).setPort(0)))
        .withClusterManager(manager)
        .buildClustered()
        .compose(vertx -> {
          com.hazelcast.cluster.Cluster members = manager.getHazelcastInstance().getCluster();
          for (com.hazelcast.cluster.Member m : members.getMembers()) {
            if (!m.localMember() && nodeId.equals(m.getAttribute(HazelcastSetup.NODE_ID_ATTRIBUTE))) {
              // two nodes with one id would share session addresses: refuse rather than misroute
              return vertx.close().transform(x -> Future.failedFuture(new IllegalStateException("node id " + nodeId
                  + " is already used by the member at " + m.getAddress() + "; give this node another "
                  + "--node-id (or cluster.node_id)")));
            }
          }
          Gateway g = new Gateway(config, vertx, true, null, nodeId,
              new dev.sluice.access.SharedWindows(manager.getHazelcastInstance(), vertx));
          members.addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
              announce(vertx, McpBus.NODE_JOINED, e);
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
              // a member refused for a duplicate id leaves too: the node that holds the id is not gone
              String node = e.getMember().getAttribute(HazelcastSetup.NODE_ID_ATTRIBUTE);
              if (e.getMembers().stream().noneMatch(m -> node != null
                  && node.equals(m.getAttribute(HazelcastSetup.NODE_ID_ATTRIBUTE)))) {
                announce(vertx, McpBus.NODE_LEFT, e);
              }
            }
          });
          return g.deploy().map(v -> g);
        });
  }

  private static void announce(Vertx vertx, String address, MembershipEvent e) {
    String node = e.getMember().getAttribute(HazelcastSetup.NODE_ID_ATTRIBUTE);
    if (node != null) {
      vertx.eventBus().publish(address, node);
    }
  }

  private static VertxOptions vertxOptions(SluiceConfig config) {
    // Netty's epoll transport where its native loads (the jar carries Linux x86-64 and aarch64); NIO elsewhere
    return new VertxOptions().setEventLoopPoolSize(config.server().resolvedEventLoops())
        .setPreferNativeTransport(true);
  }

  /** Which network transport a Vert.x instance runs on, and why not the native one when it is not. */
  public static String transport(Vertx vertx) {
    if (vertx.isNativeTransportEnabled()) {
      return "epoll (Netty native)";
    }
    Throwable why = vertx.unavailableNativeTransportCause();
    return "Java NIO" + (why == null ? "" : " (epoll unavailable: " + why.getMessage() + ")");
  }

  /** Starts a node on its own Vert.x instance. */
  public static Future<Gateway> start(SluiceConfig config) {
    return start(config, Vertx.vertx(vertxOptions(config)), true, null);
  }

  /**
   * Starts a node; {@code extra} may register more tools, resources or prompts before the first
   * session (the conformance fixtures use it; the product does not).
   */
  public static Future<Gateway> start(SluiceConfig config, Vertx vertx, boolean ownsVertx,
      Consumer<McpFeatures> extra) {
    Gateway g = new Gateway(config, vertx, ownsVertx, extra, null, null);
    return g.deploy().map(v -> g);
  }

  public ApprovedCatalog approved() {
    return approved;
  }

  private Future<Void> deploy() {
    AtomicInteger shardIndex = new AtomicInteger();
    SessionShardVerticle.SessionSettings settings = new SessionShardVerticle.SessionSettings(
        config.server().sessionIdleTimeoutMs(), config.server().sseReplayEvents(),
        Math.max(1, config.server().maxSessions() / shards), config.server().slowCallMs());
    return prepareDemo()
        .compose(v -> state.init())
        .compose(v -> tasks.start())
        .compose(v -> audit.startPostgres(vertx))
        .compose(v -> vertx.executeBlocking(() -> {
          approved.start(vertx);
          return null;
        }))
        .compose(v -> {
          // before the executors, which look their queue meters up once when they build their pools
          QueueMeters.install(vertx, metrics.queueMeters());
          return Executors.deploy(vertx, config);
        })
        .compose(v -> vertx.deployVerticle(
            new CatalogVerticle(config.connections(), config.catalog(), snapshots)))
        .compose(v -> vertx.deployVerticle(new IngestVerticle(config.connections(), config.ingest(),
            state, nodeId, config.state().leaseMs(), true)))
        .compose(v -> vertx.deployVerticle(
            () -> new SessionShardVerticle(nodeId, shardIndex.getAndIncrement(), audit, features, metrics, settings),
            new DeploymentOptions().setInstances(shards)))
        .compose(v -> dev.sluice.console.ConsoleSources.register(vertx, connections))
        .compose(v -> nodeCalls.start())
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
    return vertx.executeBlocking(() -> {
      DemoDataset.ensureSqlite(config.stateDir());
      List<String> layer = DemoLayer.installIfAbsent(config.stateDir());
      if (!layer.isEmpty()) {
        LOG.info("installed the demo's example semantic layer in {}: {}",
            config.stateDir().resolve("semantic/demo"), layer);
      }
      return null;
    }).mapEmpty();
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
    return new HttpVerticle(config.server().withPort(p), nodeId, shards, metrics, this::health, audit, principals,
        draining::get, this::statelessHandler);
  }

  /**
   * A handler of 2026-07-28 requests for one event loop (each HTTP verticle and the stdio
   * transport make their own): it runs their calls itself, without a session shard.
   */
  public StatelessHandler statelessHandler() {
    return new StatelessHandler(vertx, nodeId, features,
        new ToolInvocation(nodeId, audit, features, metrics, new ToolCallLog(config.server().slowCallMs())),
        tasks, nodeQueries, nodeCalls);
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

  public AuditTrail audit() {
    return audit;
  }

  public GatewayMetrics metrics() {
    return metrics;
  }

  /**
   * The first half of a graceful stop: this node takes no new sessions (initialize answers 503,
   * /health answers 503 so a load balancer moves on) while the sessions it has keep being served,
   * until no call runs here, no call relayed through here to another node is unanswered, or
   * {@code timeoutMs} passes.
   *
   * @return the number of calls still running or relayed at the bound (0: drained)
   */
  public Future<Integer> drain(long timeoutMs) {
    draining.set(true);
    if (callsHeld() == 0) {
      return Future.succeededFuture(0);
    }
    long deadline = System.currentTimeMillis() + timeoutMs;
    io.vertx.core.Promise<Integer> done = io.vertx.core.Promise.promise();
    vertx.setPeriodic(50, id -> {
      int running = callsHeld();
      if (running == 0 || System.currentTimeMillis() >= deadline) {
        vertx.cancelTimer(id);
        done.complete(running);
      }
    });
    return done.future();
  }

  public boolean draining() {
    return draining.get();
  }

  private int callsHeld() {
    return metrics.callsInFlight() + metrics.relayedCallsInFlight();
  }

  /** Undeploys everything (SQLite workers are killed by their executor's stop). */
  public Future<Void> stop() {
    Future<Void> undeployed = Future.all(vertx.deploymentIDs().stream().map(vertx::undeploy).toList())
        .<Void>mapEmpty().eventually(tasks::stop).eventually(nodeCalls::stop);
    return undeployed.eventually(() -> vertx.executeBlocking(() -> {
      // every call has ended: what the trail buffered is written and fsynced before we return
      audit.close();
      meaning.close();
      state.close();
      return null;
    })).eventually(() -> {
      metrics.close();
      return ownsVertx ? vertx.close() : Future.succeededFuture();
    });
  }
}
