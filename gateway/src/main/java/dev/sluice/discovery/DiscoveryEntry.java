package dev.sluice.discovery;

import dev.sluice.catalog.TableRef;
import java.util.List;

/**
 * One searchable thing: a table, a column or a wiki page, with the stored fields its summary and
 * snippet may be taken from (never anything else).
 *
 * @param scope connections a wiki page is limited to (empty: all); for tables and columns, theirs
 * @param describedBy "comment" for schema objects, "description" for wiki summaries
 * @param meaning what the dense lane embeds: the entry described in a few plain words
 *     ({@link MeaningTexts}); its hash keys the vector cache
 */
public record DiscoveryEntry(
    String kind,
    String id,
    String connectionId,
    TableRef tableRef,
    String columnName,
    String name,
    String tableName,
    String description,
    String describedBy,
    List<String> samples,
    String nativeType,
    List<String> columnNames,
    String body,
    List<String> scope,
    String meaning) {}
