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
