package dev.sluice.observability;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.sluice.bus.JsonBytes;
import java.io.IOException;
import net.logstash.logback.argument.StructuredArgument;

/**
 * Several structured fields as one log argument: in JSON each its own field (a null value
 * written as null, as {@code kv(name, null)} writes it), in the text format {@code key=value}
 * pairs, nulls left out. One object per log line instead of a marker per field: the tool.start /
 * tool.end pair is written for every call.
 */
final class LogFields implements StructuredArgument {

  private final String[] names;
  private final Object[] values;

  /** {@code names} is shared between lines (a constant); {@code values} lines up with it. */
  LogFields(String[] names, Object... values) {
    if (names.length != values.length) {
      throw new IllegalArgumentException(names.length + " names, " + values.length + " values");
    }
    this.names = names;
    this.values = values;
  }

  @Override
  public void writeTo(JsonGenerator g) throws IOException {
    for (int i = 0; i < names.length; i++) {
      g.writeFieldName(names[i]);
      Object v = values[i];
      if (!JsonBytes.writeCommonScalar(v, g)) {
        g.writeObject(v);
      }
    }
  }

  @Override
  public String toString() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      if (values[i] != null) {
        b.append(b.length() == 0 ? "" : " ").append(names[i]).append('=').append(values[i]);
      }
    }
    return b.toString();
  }
}
