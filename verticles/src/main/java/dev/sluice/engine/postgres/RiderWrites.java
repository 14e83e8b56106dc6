package dev.sluice.engine.postgres;

import dev.sluice.sql.pool.CommandGroup;
import io.vertx.core.internal.ContextInternal;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.internal.command.CommandScheduler;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The reads riding one shared connection, written together once the event loop has handled the
 * requests it read in this turn: calls that arrive in one burst leave in one socket write per
 * connection, and the backend reads them in one wake-up. Without it each read was its own write
 * and, on the server, its own wake-up. Touched on the executor verticle's context only.
 */
final class RiderWrites {

  private final Map<SqlConnection, List<Consumer<CommandScheduler>>> unsent = new IdentityHashMap<>();

  /** Queues {@code write} (it schedules the read's commands) for this turn's write on {@code conn}. */
  void add(ContextInternal context, SqlConnection conn, Consumer<CommandScheduler> write) {
    List<Consumer<CommandScheduler>> batch = unsent.get(conn);
    if (batch == null) {
      List<Consumer<CommandScheduler>> fresh = new ArrayList<>(8);
      unsent.put(conn, fresh);
      // runs after the I/O events of this turn: every read they started is in the batch by then
      context.runOnContext(v -> {
        unsent.remove(conn);
        CommandGroup.send(conn, flight -> {
          for (Consumer<CommandScheduler> w : fresh) {
            w.accept((CommandScheduler) flight);
          }
        });
      });
      batch = fresh;
    }
    batch.add(write);
  }
}
