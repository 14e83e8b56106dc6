package dev.sluice.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ErrorTypeTest {

  @Test
  void codesAreUniqueAndRoundTrip() {
    Set<Integer> seen = new HashSet<>();
    for (ErrorType t : ErrorType.values()) {
      assertEquals(true, seen.add(t.code()), "duplicate code " + t.code());
      assertEquals(t, ErrorType.fromCode(t.code()));
      assertEquals(t, ErrorType.fromWire(t.wireName()));
    }
  }

  @Test
  void errorSurvivesTheBus() {
    SqlError original = new SqlError(ErrorType.COLUMN_NOT_FOUND, "column \"nme\" does not exist",
        new JsonObject().put("sql_state", "42703").put("position", 8));
    ReplyException onWire = new ReplyException(ReplyFailure.RECIPIENT_FAILURE,
        ErrorType.COLUMN_NOT_FOUND.code(), original.toJson().encode());
    SqlError back = SqlError.from(onWire);
    assertEquals(ErrorType.COLUMN_NOT_FOUND, back.type());
    assertEquals("42703", back.toJson().getString("sql_state"));
    assertEquals(8, back.toJson().getInteger("position"));
    assertEquals("column \"nme\" does not exist", back.getMessage());
  }

  @Test
  void deadlineMessageIsCanonical() {
    assertEquals("query exceeded 30s", SqlBus.deadlineMessage(30_000));
    assertEquals("query exceeded 2s", SqlBus.deadlineMessage(2_000));
    assertEquals("query exceeded 1s", SqlBus.deadlineMessage(300));
  }
}
