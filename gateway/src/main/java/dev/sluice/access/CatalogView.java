package dev.sluice.access;

import dev.sluice.catalog.CatalogColumn;
import dev.sluice.catalog.CatalogSnapshot;
import dev.sluice.catalog.CatalogTable;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one governed principal may see of one connection's catalog: the snapshot with the tables,
 * views and columns its policy hides taken out, and the names only the hidden part carries (a
 * denied table, a view over one, a denied column, a column of a hidden table). Error scrubbing and
 * the semantic layer read it, so a name the catalog tools would not show never reaches the caller
 * another way.
 */
public final class CatalogView {

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}_$]+");

  private final CatalogSnapshot visible;
  private final Set<String> visibleNames = new HashSet<>();
  private final Set<String> hiddenNames = new HashSet<>();

  /** @param all the connection's snapshot; null when none was scanned yet
   * @param visible the same snapshot as the principal may see it */
  CatalogView(CatalogSnapshot all, CatalogSnapshot visible) {
    this.visible = visible;
    if (visible != null) {
      for (CatalogTable t : visible.tables()) {
        visibleNames.add(lower(t.ref().name()));
        t.columns().forEach(c -> visibleNames.add(lower(c.name())));
      }
    }
    if (all != null) {
      for (CatalogTable t : all.tables()) {
        add(t.ref().name());
        t.columns().forEach(c -> add(c.name()));
      }
    }
  }

  /** The view of a principal on a connection that has no snapshot yet: nothing is known to be visible. */
  static CatalogView unknown() {
    return new CatalogView(null, null);
  }

  private void add(String name) {
    String n = lower(name);
    if (!visibleNames.contains(n)) {
      hiddenNames.add(n);
    }
  }

  /** The visible snapshot; empty when the connection was not scanned yet. */
  public Optional<CatalogSnapshot> snapshot() {
    return Optional.ofNullable(visible);
  }

  /** Whether {@code name} (bare or qualified, any case) is a table or column the principal may see. */
  public boolean visibleName(String name) {
    if (name == null) {
      return false;
    }
    String bare = name.contains(".") ? name.substring(name.lastIndexOf('.') + 1) : name;
    return visibleNames.contains(lower(bare.replace("\"", "").replace("`", "")));
  }

  /** The visible table of this bare name (any case), or null. */
  public CatalogTable table(String name) {
    if (visible == null || name == null) {
      return null;
    }
    return visible.tables().stream().filter(t -> t.ref().name().equalsIgnoreCase(name)).findFirst().orElse(null);
  }

  /** Whether the visible table {@code table} has a column {@code column} (any case). */
  public boolean columnVisible(String table, String column) {
    CatalogTable t = table(table);
    return t != null && column != null && t.columns().stream().map(CatalogColumn::name)
        .anyMatch(c -> c.equalsIgnoreCase(column));
  }

  /** Whether {@code text} contains, as a word, a name only the hidden part of the catalog carries. */
  public boolean mentionsHidden(String text) {
    if (text == null || hiddenNames.isEmpty()) {
      return false;
    }
    String lower = lower(text);
    Matcher m = WORD.matcher(lower);
    while (m.find()) {
      if (hiddenNames.contains(m.group())) {
        return true;
      }
    }
    // names that are no single word ("big paid") are looked for as they are
    for (String n : hiddenNames) {
      if (!WORD.matcher(n).matches() && lower.contains(n)) {
        return true;
      }
    }
    return false;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
