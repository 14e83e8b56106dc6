package dev.sluice.observability;

import static net.logstash.logback.argument.StructuredArguments.kv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import net.logstash.logback.argument.StructuredArgument;
import org.junit.jupiter.api.Test;

/** One LogFields argument writes what a kv(...) argument per field wrote, in both formats. */
class LogFieldsTest {

  private static final String[] NAMES = {"callId", "tool", "errorType", "durationMs", "rows"};

  private static String json(StructuredArgument... args) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.writeStartObject();
      for (StructuredArgument a : args) {
        a.writeTo(g);
      }
      g.writeEndObject();
    }
    return out.toString();
  }

  @Test
  void jsonIsWhatAKvPerFieldWrote() throws IOException {
    Object[] values = {"c-1", "sql \"execution\" é", null, 12L, 3};
    StructuredArgument[] perField = new StructuredArgument[NAMES.length];
    for (int i = 0; i < NAMES.length; i++) {
      perField[i] = kv(NAMES[i], values[i]);
    }
    assertEquals(json(perField), json(new LogFields(NAMES, values)));
  }

  @Test
  void textLeavesNullsOut() {
    assertEquals("callId=c-1 tool=t durationMs=5 rows=0", new LogFields(NAMES, "c-1", "t", null, 5L, 0).toString());
    assertEquals("", new LogFields(new String[] {"a"}, (Object) null).toString());
    assertThrows(IllegalArgumentException.class, () -> new LogFields(NAMES, "only one"));
  }
}
