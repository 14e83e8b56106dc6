package dev.sluice.catalog;

/**
 * What the value profile covered, so a dictionary miss can say how much was looked at.
 *
 * @param sampledRows rows read per table
 * @param valuesPerColumn most frequent distinct values kept per column
 * @param profiledColumns columns that have sampled values
 * @param profiledAt ISO-8601 UTC
 */
public record ProfileInfo(int sampledRows, int valuesPerColumn, int profiledColumns, String profiledAt) {}
