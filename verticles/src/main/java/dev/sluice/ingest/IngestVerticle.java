package dev.sluice.ingest;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.SnapshotStore;
import dev.sluice.config.ConnectionConfig;
import dev.sluice.config.IngestConfig;
import dev.sluice.config.StateConfig;
import dev.sluice.state.DirectoryStateStore;
import dev.sluice.state.StateStore;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.ExecutorSupport;
import dev.sluice.sql.SqlError;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Executes memory_ingest runs: a bounded queue, at most {@link IngestConfig#concurrency()} runs at
 * once on worker threads, every state change persisted before it is reported. On start it picks
 * up the runs a previous process left queued or running and runs them again; runs are idempotent
 * (the same content at the same key is a no-op), so a run interrupted after its page was written
 * simply completes.
 *
 * <p>Every run is claimed by the node that executes it (a lease in the state store). With a
 * shared store the node renews its claims while it lives; when a node dies its claims lapse and
 * another node's sweep takes its unfinished runs over, so a run is never lost with its node and
 * never executed by two nodes at once.
 */
public final class IngestVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(IngestVerticle.class);
  /** How long a caller refused for a full queue should wait. */
  static final long RETRY_AFTER_MS = 1_000;

  private final Map<String, ConnectionConfig> connections = new LinkedHashMap<>();
  private final IngestConfig settings;
  private final StateStore store;
  private final RunStore runs;
  private final WikiWriter wiki;
  private final SnapshotStore snapshots;
  private final Triage triage;
  private final Deque<IngestRun> queue = new ArrayDeque<>();
  /** Runs queued or running here: a takeover sweep must not queue one of them twice. */
  private final java.util.Set<String> active = new java.util.HashSet<>();
  private int running;
  private final boolean resumeUnfinished;
  private final String node;
  private final long leaseMs;

  /** A single-node runner on the directory store: resumes the runs a previous process left unfinished. */
  public IngestVerticle(List<ConnectionConfig> connections, IngestConfig settings, Path stateDir) {
    this(connections, settings, new DirectoryStateStore(stateDir), "local", StateConfig.DEFAULT_LEASE_MS,
        true);
  }

  /**
   * @param store where runs, pages and snapshots live
   * @param node this node's id, the owner of the runs it claims
   * @param leaseMs how long a claim lasts unrenewed
   * @param resumeUnfinished false for {@code sluice ingest}, which must not pick up the runs of a
   *     gateway that may be executing them right now
   */
  public IngestVerticle(List<ConnectionConfig> connections, IngestConfig settings, StateStore store,
      String node, long leaseMs, boolean resumeUnfinished) {
    this.resumeUnfinished = resumeUnfinished;
    connections.forEach(c -> this.connections.put(c.id(), c));
    this.settings = settings;
    this.store = store;
    this.runs = new RunStore(store);
    this.wiki = new WikiWriter(store);
    this.snapshots = new SnapshotStore(store);
    this.node = node;
    this.leaseMs = leaseMs;
    this.triage = settings.model() == null ? new VerbatimTriage() : new ModelTriage(settings.model());
  }

  @Override
  public Future<?> start() {
    return vertx.executeBlocking(() -> {
      if (!resumeUnfinished) {
        return List.<IngestRun>of();
      }
      runs.removeInterruptedWrites();
      wiki.removeInterruptedWrites();
      // runs another live node holds stay with it; the rest (ours from a previous process) resume here
      return runs.all().stream().filter(r -> !r.finished() && runs.claim(r.runId(), node, leaseMs))
          .sorted((a, b) -> a.createdAt().compareTo(b.createdAt())).toList();
    }).compose(unfinished -> {
      if (!unfinished.isEmpty()) {
        LOG.info("resuming {} memory_ingest runs left unfinished by a previous process", unfinished.size());
      }
      unfinished.forEach(r -> {
        active.add(r.runId());
        queue.add(r.queuedAgain());
      });
      if (resumeUnfinished && runs.shared()) {
        vertx.setPeriodic(leaseMs / 3, id -> vertx.executeBlocking(() -> {
          runs.renew(node, leaseMs);
          return null;
        }, false).onFailure(err -> LOG.warn("could not renew this node's ingest claims: {}", err.toString())));
        vertx.setPeriodic(leaseMs / 2, id -> takeOverOrphans());
      }
      if (resumeUnfinished && settings.keepRunsMs() > 0) {
        // every node may sweep: removing a removed run is a no-op
        long every = Math.max(1_000, Math.min(3_600_000, settings.keepRunsMs() / 4));
        vertx.setPeriodic(1_000, every, id -> removeOldRuns());
      }
      return Future.all(ExecutorSupport.consume(vertx, IngestBus.SUBMIT, this::submit),
          ExecutorSupport.consume(vertx, IngestBus.STATUS, this::status));
    }).onSuccess(v -> drain());
  }

  /** Runs whose node stopped renewing its claim (it died): claimed here and executed again. */
  private void takeOverOrphans() {
    vertx.executeBlocking(() -> {
      List<IngestRun> taken = new ArrayList<>();
      for (String runId : runs.orphaned()) {
        if (runs.claim(runId, node, leaseMs)) {
          IngestRun r = runs.load(runId).orElse(null);
          if (r == null || r.finished()) {
            runs.release(runId, node);
          } else {
            taken.add(r);
          }
        }
      }
      return taken;
    }, false).onSuccess(taken -> {
      if (!taken.isEmpty()) {
        LOG.info("took over {} memory_ingest runs from a node that stopped", taken.size());
        taken.stream().filter(r -> active.add(r.runId())).forEach(r -> queue.add(r.queuedAgain()));
        drain();
      }
    }).onFailure(err -> LOG.warn("could not look for orphaned ingest runs: {}", err.toString()));
  }

  private void removeOldRuns() {
    Instant cutoff = Instant.now().minusMillis(settings.keepRunsMs());
    vertx.executeBlocking(() -> runs.removeFinishedBefore(cutoff), false)
        .onSuccess(n -> {
          if (n > 0) {
            LOG.info("removed {} memory_ingest runs finished before {} (ingest.keep_runs_ms)", n, cutoff);
          }
        })
        .onFailure(err -> LOG.warn("could not remove old memory_ingest runs: {}", err.toString()));
  }

  private Future<JsonObject> submit(JsonObject req) {
    String content = req.getString("content");
    String connectionId = req.getString("connectionId");
    if (connectionId != null && !connections.containsKey(connectionId)) {
      return Future.failedFuture(new SqlError(ErrorType.INVALID_ARGUMENT, "unknown connectionId '" + connectionId
          + "'; configured connections: " + connections.keySet())
          .with("availableConnections", new JsonArray(new ArrayList<>(connections.keySet()))));
    }
    IngestInput.check(content, settings.maxContentBytes());
    if (queue.size() >= settings.maxQueue()) {
      return Future.failedFuture(new SqlError(ErrorType.BUSY, queue.size() + " memory_ingest runs are waiting"
          + " (ingest.max_queue " + settings.maxQueue() + "); retry after retryAfterMs")
          .with("retryAfterMs", RETRY_AFTER_MS));
    }
    IngestRun run = IngestRun.queued(UUID.randomUUID().toString(), connectionId, req.getString("source", "memory_ingest"),
        Instant.now().toString(), req.getString("sessionId"), req.getString("notifyAddress"),
        req.getString("principal"));
    // The runId is only returned once the run and its content are on disk.
    return vertx.executeBlocking(() -> {
      runs.create(run, content, node, leaseMs);
      return run;
    }).map(r -> {
      active.add(r.runId());
      queue.add(r);
      drain();
      return new JsonObject().put("runId", r.runId()).put("status", "queued");
    });
  }

  private Future<JsonObject> status(JsonObject req) {
    String runId = req.getString("runId", "");
    String requester = req.getString("principal");
    // another principal's run answers exactly like an unknown one: its existence is not told
    return vertx.executeBlocking(() -> runs.load(runId)).map(found -> found.filter(r -> r.visibleTo(requester))
        .map(IngestRun::toStatus)
        .orElseThrow(() -> new SqlError(ErrorType.NOT_FOUND, "no memory_ingest run '" + runId + "'; runIds come "
            + "from memory_ingest, and finished runs are kept for ingest.keep_runs_ms").with("runId", runId)));
  }

  private void drain() {
    while (running < settings.concurrency() && !queue.isEmpty()) {
      IngestRun next = queue.poll();
      running++;
      execute(next).onComplete(ar -> {
        running--;
        active.remove(next.runId());
        if (ar.failed()) {
          LOG.error("memory_ingest run {} could not be recorded: {}", next.runId(), ar.cause().toString());
        }
        drain();
      });
    }
  }

  private Future<Void> execute(IngestRun queued) {
    IngestRun started = queued.running(Instant.now().toString());
    return vertx.executeBlocking(() -> {
      runs.save(started);
      return started;
    }).onSuccess(r -> notify(r, "running", null)).compose(r -> vertx.executeBlocking(() -> {
      IngestRun done = run(r);
      runs.release(r.runId(), node);
      return done;
    }, false))
        .compose(done -> {
          notify(done, done.status(), done.error());
          if ("completed".equals(done.status())) {
            vertx.eventBus().publish(IngestBus.CHANGED, new JsonObject().put("runId", done.runId()),
                new io.vertx.core.eventbus.DeliveryOptions().setLocalOnly(true));
          }
          return Future.<Void>succeededFuture();
        });
  }

  /** The run itself, on a worker thread; ends persisted as completed or failed. */
  private IngestRun run(IngestRun r) {
    JsonArray warnings = new JsonArray();
    IngestRun done;
    try {
      String content = runs.content(r.runId());
      String source = SemanticIngest.sourceName(content);
      if (source != null) {
        String action = SemanticIngest.write(store, r.connectionId(), source, content);
        done = r.completed(Instant.now().toString(), new JsonArray().add(new JsonObject().put("key", source)
            .put("kind", "sl_source").put("action", action)), warnings);
        runs.save(done);
        return done;
      }
      PagePlan plan = triage.plan(content, r.connectionId(), catalog(r.connectionId()), r);
      plan.warnings().forEach(warnings::add);
      String action = wiki.write(plan);
      done = r.completed(Instant.now().toString(), new JsonArray().add(new JsonObject().put("key", plan.key())
          .put("action", action)), warnings);
    } catch (RuntimeException e) {
      SqlError err = SqlError.from(e);
      done = r.failed(Instant.now().toString(), err.type().wireName(), err.getMessage(), warnings);
    }
    runs.save(done);
    return done;
  }

  private List<CatalogSnapshot> catalog(String connectionId) {
    List<CatalogSnapshot> out = new ArrayList<>();
    for (String id : connectionId != null ? List.of(connectionId) : connections.keySet()) {
      snapshots.read(id).ifPresent(s -> out.add(s.snapshot()));
    }
    return out;
  }

  /** notifications/message to the session that started the run, through its shard. */
  private void notify(IngestRun r, String status, JsonObject error) {
    if (r.notifyAddress() == null || r.sessionId() == null) {
      return;
    }
    JsonObject data = new JsonObject().put("runId", r.runId()).put("status", status).put("pages", r.pages());
    if (error != null) {
      data.put("error", error);
    }
    vertx.eventBus().send(r.notifyAddress(), new JsonObject().put("sessionId", r.sessionId())
        .put("level", switch (status) { case "failed" -> "warning"; case "completed" -> "notice"; default -> "info"; }).put("logger", "memory_ingest").put("data", data));
  }
}
