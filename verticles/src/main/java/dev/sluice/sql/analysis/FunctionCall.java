package dev.sluice.sql.analysis;

/**
 * A function a statement calls, by its decoded name ({@code U&"\0073et_config"},
 * {@code "SET_CONFIG"} and {@code pg_catalog.set_config} all read {@code set_config}).
 *
 * @param schema the qualifier as written (decoded), or null
 * @param name the function name, decoded and lower-cased
 */
public record FunctionCall(String schema, String name) {}
