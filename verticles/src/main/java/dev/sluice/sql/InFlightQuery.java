package dev.sluice.sql;

import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

/** One running execute: its reply (completed once), its lease while the engine works, why it was stopped. */
final class InFlightQuery {

  enum Stop { CANCELLED, DEADLINE }

  final String queryId;
  final EngineAdapter engine;
  final Promise<JsonObject> reply = Promise.promise();
  EngineAdapter.Lease lease;
  Stop stop;

  InFlightQuery(String queryId, EngineAdapter engine) {
    this.queryId = queryId;
    this.engine = engine;
  }
}
