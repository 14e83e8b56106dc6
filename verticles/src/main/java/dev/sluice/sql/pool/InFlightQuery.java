package dev.sluice.sql.pool;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/** One running execute: its reply (completed once), its lease while the engine works, why it was stopped. */
final class InFlightQuery {

  enum Stop { CANCELLED, DEADLINE }

  final String queryId;
  final EngineAdapter engine;
  final Promise<JsonObject> reply = Promise.promise();
  /** Its place in the pool's wait queue, then its slot. */
  PoolGate.Ticket ticket;
  EngineAdapter.Lease lease;
  /** The engine-side stop request, once sent; the lease is not released before it lands. */
  Future<Void> cancelSent;
  Stop stop;

  InFlightQuery(String queryId, EngineAdapter engine) {
    this.queryId = queryId;
    this.engine = engine;
  }
}
