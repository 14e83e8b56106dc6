package dev.sluice.tools;

import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import dev.sluice.catalog.TableRef;
import dev.sluice.sql.ErrorType;
import dev.sluice.sql.NameSuggester;
import dev.sluice.sql.SqlError;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Finds the table an agent means in a snapshot. Accepts a display string ({@code orders},
 * {@code shop.orders}, {@code test.shop.orders}) or a structured {@code {catalog, db, name}}; an
 * exact-case match wins over a case-insensitive one. No match is table_not_found with similar
 * names; several are ambiguous_name with the candidates.
 */
final class TableResolver {

  private TableResolver() {}

  static CatalogTable resolve(CatalogSnapshot snapshot, Object table) {
    TableRef wanted = parse(table);
    List<CatalogTable> exact = new ArrayList<>();
    List<CatalogTable> folded = new ArrayList<>();
    for (CatalogTable t : snapshot.tables()) {
      if (matches(wanted, t.ref(), false)) {
        exact.add(t);
      } else if (matches(wanted, t.ref(), true)) {
        folded.add(t);
      }
    }
    List<CatalogTable> found = exact.isEmpty() ? folded : exact;
    if (found.size() == 1) {
      return found.get(0);
    }
    String asked = describe(table);
    if (found.isEmpty()) {
      List<String> names = new ArrayList<>();
      snapshot.tables().forEach(t -> {
        names.add(t.ref().display());
        names.add(t.ref().name());
      });
      List<String> similar = NameSuggester.similar(wanted.name(), names);
      String hint = similar.isEmpty() ? "" : " Did you mean " + String.join(", ", similar) + "?";
      return fail(new SqlError(ErrorType.TABLE_NOT_FOUND, "no table or view '" + asked + "' in the catalog"
          + " snapshot of '" + snapshot.connectionId() + "' (taken " + snapshot.extractedAt() + ")." + hint)
          .with("suggestions", new JsonArray(similar))
          .with("hint", "Use discover_data to find tables by topic. If the table was created after "
              + snapshot.extractedAt() + ", rescan: java -jar gateway/target/sluice.jar scan "
              + snapshot.connectionId() + " --config <your config>."));
    }
    JsonArray candidates = new JsonArray();
    found.forEach(t -> candidates.add(refJson(t.ref()).put("display", t.ref().display())));
    return fail(new SqlError(ErrorType.AMBIGUOUS_NAME, "'" + asked + "' matches " + found.size()
        + " tables in '" + snapshot.connectionId() + "': "
        + String.join(", ", found.stream().map(t -> t.ref().qualified()).toList())
        + "; pass one of them qualified")
        .with("candidates", candidates));
  }

  static JsonObject refJson(TableRef r) {
    return new JsonObject().put("catalog", r.catalog()).put("db", r.db()).put("name", r.name());
  }

  private static CatalogTable fail(SqlError e) {
    throw e;
  }

  private static boolean matches(TableRef wanted, TableRef t, boolean fold) {
    return same(wanted.name(), t.name(), fold)
        && (wanted.db() == null || same(wanted.db(), t.db(), fold))
        && (wanted.catalog() == null || same(wanted.catalog(), t.catalog(), fold));
  }

  private static boolean same(String a, String b, boolean fold) {
    if (b == null) {
      return false;
    }
    return fold ? a.toLowerCase(Locale.ROOT).equals(b.toLowerCase(Locale.ROOT)) : a.equals(b);
  }

  private static TableRef parse(Object table) {
    if (table instanceof JsonObject o) {
      String name = o.getString("name");
      if (name == null || name.isBlank()) {
        throw new SqlError(ErrorType.INVALID_ARGUMENT, "a structured table needs a non-empty name: " + o.encode());
      }
      return new TableRef(blankToNull(o.getString("catalog")), blankToNull(o.getString("db")), name);
    }
    String s = String.valueOf(table).trim();
    List<String> parts = new ArrayList<>();
    for (String p : s.split("\\.", -1)) {
      parts.add(unquote(p.trim()));
    }
    if (parts.stream().anyMatch(String::isEmpty) || parts.size() > 3) {
      throw new SqlError(ErrorType.INVALID_ARGUMENT, "'" + s + "' is not a table name; use name, db.name or "
          + "catalog.db.name");
    }
    return switch (parts.size()) {
      case 1 -> new TableRef(null, null, parts.get(0));
      case 2 -> new TableRef(null, parts.get(0), parts.get(1));
      default -> new TableRef(parts.get(0), parts.get(1), parts.get(2));
    };
  }

  private static String unquote(String p) {
    if (p.length() >= 2 && (p.startsWith("\"") && p.endsWith("\"") || p.startsWith("`") && p.endsWith("`"))) {
      return p.substring(1, p.length() - 1);
    }
    return p;
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }

  private static String describe(Object table) {
    return table instanceof JsonObject o ? parse(o).qualified() : String.valueOf(table);
  }
}
