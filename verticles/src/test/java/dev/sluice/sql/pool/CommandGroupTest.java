package dev.sluice.sql.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sluice.testing.TestDatabases;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.mysqlclient.MySQLConnectOptions;
import io.vertx.mysqlclient.MySQLConnection;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgConnection;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.SqlConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A group sent on a connection its server has already closed: every command in it fails at once.
 * The driver's own group dropped them unanswered there, so a read sent just after the server went
 * away waited for its deadline (PgExecutorTest's outage test timed out about one run in six).
 */
class CommandGroupTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  void postgresGroupOnAConnectionTheServerClosedFailsEveryCommand() throws Exception {
    TestDatabases.requirePostgres();
    PgConnectOptions options = PgConnectOptions.fromUri(TestDatabases.pgUrl(TestDatabases.PG_DATABASE));
    groupAfterServerClosed(() -> PgConnection.connect(vertx, options).map(c -> (SqlConnection) c),
        (killer, conn) -> killer.query("SELECT pg_terminate_backend(" + ((PgConnection) conn).processId() + ")")
            .execute().mapEmpty());
  }

  @Test
  void mariadbGroupOnAConnectionTheServerClosedFailsEveryCommand() throws Exception {
    TestDatabases.requireMysql();
    MySQLConnectOptions options = MySQLConnectOptions.fromUri(TestDatabases.mysqlUrl(TestDatabases.MYSQL_DATABASE));
    groupAfterServerClosed(() -> MySQLConnection.connect(vertx, options).map(c -> (SqlConnection) c),
        (killer, conn) -> conn.query("SELECT CONNECTION_ID()").execute()
            .compose(rs -> killer.query("KILL " + rs.iterator().next().getLong(0)).execute()).mapEmpty());
  }

  private void groupAfterServerClosed(Supplier<Future<SqlConnection>> connect,
      BiFunction<SqlConnection, SqlConnection, Future<Void>> kill) throws Exception {
    Context ctx = vertx.getOrCreateContext();
    CompletableFuture<List<Throwable>> outcome = new CompletableFuture<>();
    ctx.runOnContext(v -> {
      Future<SqlConnection> victim = connect.get();
      Future<SqlConnection> killer = connect.get();
      Future.all(victim, killer).compose(both -> {
        SqlConnection conn = victim.result();
        Promise<Void> closed = Promise.promise();
        conn.closeHandler(x -> closed.tryComplete());
        return kill.apply(killer.result(), conn).compose(x -> closed.future()).map(x -> conn);
      }).onFailure(outcome::completeExceptionally).onSuccess(conn -> {
        // the connection is closed now: what a group sends on it must fail, command by command
        List<Future<?>> sent = new ArrayList<>();
        CommandGroup.send(conn, flight -> {
          sent.add(flight.query("SELECT 1").execute());
          sent.add(flight.query("SELECT 2").execute());
        });
        Future.join(sent).onComplete(ar -> {
          List<Throwable> causes = new ArrayList<>();
          sent.forEach(f -> causes.add(f.cause()));
          outcome.complete(causes);
          killer.result().close();
        });
      });
    });
    List<Throwable> causes = outcome.get(5, TimeUnit.SECONDS);
    assertEquals(2, causes.size());
    for (Throwable cause : causes) {
      assertInstanceOf(ClosedConnectionException.class, cause, String.valueOf(cause));
    }
  }
}
