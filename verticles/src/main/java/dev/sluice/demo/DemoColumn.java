package dev.sluice.demo;

/**
 * One column of a demo table.
 *
 * @param name column name (lower case, no quoting needed)
 * @param type logical type
 * @param precision total digits for {@link DemoType#NUMERIC}, maximum length for {@link DemoType#TEXT}
 *     (MySQL needs a bounded VARCHAR to index it), otherwise 0
 * @param scale fraction digits for {@link DemoType#NUMERIC}, otherwise 0
 * @param nullable whether NULL is allowed
 * @param unique whether the column carries a UNIQUE constraint
 * @param references referenced table (its {@code id}) for a foreign key, or null
 * @param comment description for the catalog
 */
public record DemoColumn(
    String name,
    DemoType type,
    int precision,
    int scale,
    boolean nullable,
    boolean unique,
    String references,
    String comment) {

  static DemoColumn of(String name, DemoType type, String comment) {
    return new DemoColumn(name, type, type == DemoType.TEXT ? 255 : 0, 0, false, false, null, comment);
  }

  static DemoColumn text(String name, int maxLength, String comment) {
    return new DemoColumn(name, DemoType.TEXT, maxLength, 0, false, false, null, comment);
  }

  static DemoColumn numeric(String name, int precision, int scale, String comment) {
    return new DemoColumn(name, DemoType.NUMERIC, precision, scale, false, false, null, comment);
  }

  static DemoColumn reference(String name, String table, String comment) {
    return new DemoColumn(name, DemoType.INT, 0, 0, false, false, table, comment);
  }

  DemoColumn asNullable() {
    return new DemoColumn(name, type, precision, scale, true, unique, references, comment);
  }

  DemoColumn asUnique() {
    return new DemoColumn(name, type, precision, scale, nullable, true, references, comment);
  }
}
