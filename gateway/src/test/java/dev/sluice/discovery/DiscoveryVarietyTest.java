package dev.sluice.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** At most two entries of one table come before every other matching table had its turn. */
class DiscoveryVarietyTest {

  private static final DiscoveryIndex INDEX = DiscoveryIndex.build(List.of(new CatalogSnapshot("db", "sqlite",
      "s", "t", 1, List.of(
          new CatalogTable(new TableRef(null, "main", "patient"), "table", null, 10L, List.of(
              column("patient_name"), column("patient_city"), column("patient_status"), column("patient_phone")), List.of()),
          new CatalogTable(new TableRef(null, "main", "patient_admission"), "table", "Each stay on a ward", 10L,
              List.of(column("admitted_on")), List.of())),
      List.of(), new ProfileInfo(1, 1, 1, "t"))), List.of());

  @Test
  void aTableWhoseColumnsAllMatchLeavesRoomForTheNextTable() {
    List<String> ids = INDEX.search("patient", "db", Set.of(), 10).stream().map(h -> h.entry().id()).toList();
    assertTrue(ids.subList(0, 3).contains("patient_admission"), "the other table among the first three: " + ids);
    assertEquals(2, ids.subList(0, 3).stream().filter(id -> id.startsWith("patient") && !id.startsWith("patient_admission")).count(), ids.toString());
    // nothing is dropped: the table's other columns follow
    assertTrue(ids.containsAll(List.of("patient.patient_name", "patient.patient_city", "patient.patient_status",
        "patient.patient_phone")), ids.toString());
  }

  private static CatalogColumn column(String name) {
    return new CatalogColumn(name, "text", "text", "string", true, false, null, List.of(), 1L);
  }
}
