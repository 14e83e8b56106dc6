-- rule: maintenance
VACUUM INTO '/tmp/x.db'
-- @@
-- rule: host_access
ATTACH DATABASE '/tmp/x.db' AS x
-- @@
-- rule: pragma
PRAGMA writable_schema=1
-- @@
-- rule: pragma
PRAGMA query_only = 0
-- @@
-- rule: forbidden_function
SELECT load_extension('/tmp/evil.so')
-- @@
-- rule: forbidden_function
SELECT writefile('/tmp/x', 'data')
-- @@
-- rule: data_modifying_statement
EXPLAIN QUERY PLAN DELETE FROM t
-- @@
-- rule: data_modifying_statement
REPLACE INTO t VALUES (1)
-- @@
-- rule: maintenance
vacuum into '/tmp/y.db'
-- @@
-- rule: maintenance
VACUUM
-- @@
-- rule: host_access
attach '/tmp/x.db' as x
-- @@
-- rule: host_access
DETACH x
-- @@
-- rule: pragma
PRAGMA writable_schema = ON
-- @@
-- rule: pragma
pragma main.writable_schema=1
-- @@
-- rule: data_modifying_statement
PRAGMA journal_mode=DELETE
-- @@
-- rule: pragma
PRAGMA user_version = 3
-- @@
-- rule: forbidden_function
SELECT load_extension('/tmp/x.so')
-- @@
-- rule: ddl_statement
CREATE TEMP VIEW v AS SELECT 1
-- @@
-- rule: multiple_statements
CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END
-- @@
-- rule: data_modifying_statement
INSERT OR REPLACE INTO t VALUES (1)
-- @@
-- rule: data_modifying_statement
REPLACE INTO t VALUES (1)
-- @@
-- rule: data_modifying_statement
EXPLAIN QUERY PLAN DELETE FROM t
-- @@
-- rule: data_modifying_statement
explain delete from t
-- @@
-- rule: maintenance
REINDEX
-- @@
-- rule: maintenance
ANALYZE
-- @@
-- rule: session_control
BEGIN IMMEDIATE
-- @@
-- rule: session_control
RELEASE x
