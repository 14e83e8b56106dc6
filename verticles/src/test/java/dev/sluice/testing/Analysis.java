package dev.sluice.testing;

import dev.sluice.engine.Engines;
import dev.sluice.sql.Dialect;
import dev.sluice.sql.Driver;
import dev.sluice.sql.analysis.AnalysedStatement;
import dev.sluice.sql.analysis.SqlAnalyzer;

/** Analyses a statement for a dialect on the test's thread. */
public final class Analysis {

  private Analysis() {}

  public static AnalysedStatement of(Dialect d, String sql) {
    return SqlAnalyzer.analyseNow(Engines.of(Driver.valueOf(d.name())).dialect(), sql);
  }
}
