package dev.sluice.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ConsoleLogFormatTest {

  @Test
  void aTerminalGetsTextEverythingElseJsonUnlessConfigured() {
    assertEquals("text", ConsoleLogFormat.choose(null, true));
    assertEquals("json", ConsoleLogFormat.choose(null, false));
    assertEquals("json", ConsoleLogFormat.choose("JSON", true), "configured wins over the terminal");
    assertEquals("text", ConsoleLogFormat.choose(" text ", false));
    assertEquals("json", ConsoleLogFormat.choose("yaml", false), "a typo falls back to the automatic choice");
  }
}
