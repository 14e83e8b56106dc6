package dev.sluice.loadtest.discovery;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.ProfileInfo;
import dev.sluice.catalog.TableRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A large made-up catalog for the scale figures (embedding time and heap, query latency): tables
 * named from business words, a comment on every other one, columns with types, some comments and
 * sampled values. Deterministic for a given size.
 */
final class SyntheticCatalog {

  private static final String[] SUBJECTS = {"customer", "order", "invoice", "payment", "shipment", "product",
      "supplier", "employee", "contract", "ticket", "campaign", "warehouse", "vehicle", "patient", "claim", "policy",
      "account", "subscription", "asset", "project", "budget", "lead", "store", "device", "session", "survey"};
  private static final String[] ASPECTS = {"history", "lines", "events", "snapshots", "daily", "status", "notes",
      "targets", "rates", "audit", "links", "scores", "items", "versions", "stage"};
  private static final String[] COLUMN_WORDS = {"amount", "created_at", "updated_at", "status", "code", "name", "region",
      "category", "quantity", "price", "currency", "owner_id", "started_on", "ended_on", "score", "channel", "reason",
      "priority", "country", "email", "phone", "notes", "balance", "rate", "weight_kg", "due_date", "source", "type"};
  private static final String[] VALUES = {"active", "closed", "pending", "north", "south", "EUR", "GBP", "web",
      "store", "high", "low", "approved", "rejected", "gold", "silver"};

  private SyntheticCatalog() {}

  static CatalogSnapshot of(String connection, int tables, int columnsPerTable) {
    Random r = new Random(20);
    List<CatalogTable> out = new ArrayList<>();
    for (int t = 0; t < tables; t++) {
      String name = SUBJECTS[t % SUBJECTS.length] + "_" + ASPECTS[(t / SUBJECTS.length) % ASPECTS.length]
          + (t >= SUBJECTS.length * ASPECTS.length ? "_" + t : "");
      List<CatalogColumn> cols = new ArrayList<>();
      cols.add(new CatalogColumn("id", "bigint", "integer", "number", false, true, null, List.of(), null));
      for (int c = 1; c < columnsPerTable; c++) {
        String col = COLUMN_WORDS[r.nextInt(COLUMN_WORDS.length)] + (c > 8 ? "_" + c : "");
        boolean text = r.nextBoolean();
        List<String> samples = text ? List.of(VALUES[r.nextInt(VALUES.length)], VALUES[r.nextInt(VALUES.length)])
            : List.of();
        cols.add(new CatalogColumn(col, text ? "text" : "numeric", text ? "text" : "decimal", "string", true, false,
            r.nextInt(3) == 0 ? "The " + col.replace('_', ' ') + " of the " + name.replace('_', ' ') : null,
            samples, text ? 2L : null));
      }
      out.add(new CatalogTable(new TableRef("db", "s" + (t % 7), name), "table",
          t % 2 == 0 ? "One row per " + SUBJECTS[t % SUBJECTS.length] + " " + ASPECTS[(t / 3) % ASPECTS.length] : null,
          1000L, cols, List.of()));
    }
    return new CatalogSnapshot(connection, "postgres", "synthetic-" + tables, "2026-01-01T00:00:00Z", 0, out,
        List.of(), new ProfileInfo(1000, 5, tables * columnsPerTable, "2026-01-01T00:00:00Z"));
  }
}
