package dev.sluice.sql.guard;

import dev.sluice.sql.Dialect;
import net.sf.jsqlparser.parser.CCJSqlParser;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Statement;

/** The one JSqlParser setup every guard and policy uses, so they all read a statement alike. */
final class SqlParsing {

  private SqlParsing() {}

  /** @throws Exception whatever the parser throws for text it cannot read */
  static Statement statement(Dialect dialect, String sql) throws Exception {
    CCJSqlParser parser = CCJSqlParserUtil.newParser(sql).withAllowComplexParsing(true)
        .withSquareBracketQuotation(dialect == Dialect.SQLITE).withBackslashEscapeCharacter(dialect == Dialect.MYSQL);
    return parser.Statement();
  }
}
