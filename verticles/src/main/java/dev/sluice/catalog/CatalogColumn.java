package dev.sluice.catalog;

import java.util.List;

/**
 * One column as the scan saw it.
 *
 * @param normalizedType a driver-neutral type family (integer, decimal, float, text, boolean,
 *     date, timestamp, time, json, binary, uuid, other)
 * @param dimensionType time, string, number or boolean: how an analyst would slice by it
 * @param sampleValues the most frequent distinct values in the profile sample, most frequent
 *     first; empty when the column was not profiled
 * @param cardinality distinct values seen in the profile sample; null when not profiled
 */
public record CatalogColumn(
    String name,
    String nativeType,
    String normalizedType,
    String dimensionType,
    boolean nullable,
    boolean primaryKey,
    String comment,
    List<String> sampleValues,
    Long cardinality) {

  public CatalogColumn {
    sampleValues = sampleValues == null ? List.of() : List.copyOf(sampleValues);
  }

  public boolean profiled() {
    return cardinality != null;
  }

  public CatalogColumn withProfile(List<String> values, long distinct) {
    return new CatalogColumn(name, nativeType, normalizedType, dimensionType, nullable, primaryKey, comment,
        values, distinct);
  }
}
