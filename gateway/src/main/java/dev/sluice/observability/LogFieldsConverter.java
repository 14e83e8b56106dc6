package dev.sluice.observability;

import ch.qos.logback.classic.pattern.ClassicConverter;
import ch.qos.logback.classic.spi.ILoggingEvent;
import net.logstash.logback.argument.StructuredArgument;

/**
 * {@code %fields} in the text format: the structured arguments of a log call ({@code kv("tool",
 * ...)}) as {@code key=value} after the message, which the JSON format puts in their own fields
 * and a plain pattern would drop.
 */
public final class LogFieldsConverter extends ClassicConverter {

  @Override
  public String convert(ILoggingEvent event) {
    Object[] args = event.getArgumentArray();
    if (args == null) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (Object a : args) {
      if (a instanceof StructuredArgument s) {
        String text = s.toString();
        if (!text.endsWith("=null")) {
          b.append(' ').append(text);
        }
      }
    }
    return b.toString();
  }
}
