package dev.sluice.http;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The Accept check every POST and GET goes through (TransportRules.accepts). */
class AcceptHeaderTest {

  private static final String SSE = "text/event-stream";
  private static final String JSON = "application/json";

  @Test
  void findsTheTypeAmongRangesWithParametersAndSpaces() {
    assertTrue(TransportRules.accepts("application/json, text/event-stream", SSE));
    assertTrue(TransportRules.accepts("application/json, text/event-stream", JSON));
    assertTrue(TransportRules.accepts("text/html;q=0.9 ,  Text/Event-Stream ; q=0.5", SSE));
    assertTrue(TransportRules.accepts("application/json;charset=utf-8", JSON));
    assertTrue(TransportRules.accepts("*/*", SSE));
    assertTrue(TransportRules.accepts("text/html, text/*;q=0.1", SSE));
    assertTrue(TransportRules.accepts(",application/json,", JSON));
  }

  @Test
  void refusesOtherTypesAndLookAlikes() {
    assertFalse(TransportRules.accepts("application/json", SSE));
    assertFalse(TransportRules.accepts("application/jsonx, text/event-streams", JSON));
    assertFalse(TransportRules.accepts("application/jsonx, text/event-streams", SSE));
    assertFalse(TransportRules.accepts("application/*x", JSON));
    assertFalse(TransportRules.accepts("text/*", JSON));
    assertFalse(TransportRules.accepts("", JSON));
    assertFalse(TransportRules.accepts(" ; q=1", JSON));
  }
}
