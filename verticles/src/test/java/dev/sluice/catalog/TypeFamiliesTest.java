package dev.sluice.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Native types to families, especially the names that look like another family. */
class TypeFamiliesTest {

  @Test
  void namesThatContainIntAreNotAllIntegers() {
    assertEquals("integer", TypeFamilies.normalized("integer"));
    assertEquals("integer", TypeFamilies.normalized("bigint"));
    assertEquals("integer", TypeFamilies.normalized("int unsigned"));
    assertEquals("interval", TypeFamilies.normalized("interval day to second"));
    assertEquals("other", TypeFamilies.normalized("point"));
    assertEquals("other", TypeFamilies.normalized("multipoint"));
    assertEquals("other", TypeFamilies.normalized("int4range"));
    assertEquals("other", TypeFamilies.normalized("tstzmultirange"));
    assertEquals("number", TypeFamilies.dimension(TypeFamilies.normalized("smallint")));
    assertEquals("string", TypeFamilies.dimension(TypeFamilies.normalized("point")));
  }
}
