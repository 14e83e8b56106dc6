package dev.sluice.sql.pool;

import io.vertx.core.Completable;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.PromiseInternal;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.impl.SqlClientInternal;
import io.vertx.sqlclient.internal.SqlClientBase;
import io.vertx.sqlclient.internal.command.CommandBase;
import io.vertx.sqlclient.internal.command.CommandScheduler;
import io.vertx.sqlclient.internal.command.CompositeCommand;

/**
 * Commands that leave in one socket write on a connection, as the driver's
 * {@link SqlClientInternal#group} sends them, except on a connection already closed: the driver
 * then fails the group as a whole and never answers the commands in it, so a read sent just after
 * its server went away waited for its deadline and answered {@code timeout}. Here every command
 * of such a group fails at once, as one sent alone would.
 */
public final class CommandGroup extends SqlClientBase {

  private final ContextInternal context;
  private final CompositeCommand composite = new CompositeCommand();

  private CommandGroup(SqlConnection conn, ContextInternal context) {
    super(((SqlClientInternal) conn).driver());
    this.context = context;
  }

  /** Runs {@code block} on a client that collects its commands, then sends them together on {@code conn}. */
  public static void send(SqlConnection conn, Handler<SqlClient> block) {
    ContextInternal context = (ContextInternal) Vertx.currentContext();
    if (context == null) {
      throw new IllegalStateException("a command group is sent from a Vert.x context");
    }
    CommandGroup group = new CommandGroup(conn, context);
    block.handle(group);
    ((CommandScheduler) conn).schedule(group.composite, (ok, err) -> {
      if (err != null) {
        // the driver's own failure for a command lost with its connection: taken for connection_error
        for (CommandBase<?> cmd : group.composite.commands()) {
          cmd.fail(ClosedConnectionException.INSTANCE);
        }
      }
    });
  }

  @Override
  public <R> void schedule(CommandBase<R> cmd, Completable<R> handler) {
    composite.add(cmd, handler);
  }

  @Override
  protected ContextInternal context() {
    return context;
  }

  @Override
  protected <T> PromiseInternal<T> promise() {
    return context.promise();
  }

  @Override
  public Future<Void> close() {
    throw new UnsupportedOperationException("a command group is not a connection");
  }
}
