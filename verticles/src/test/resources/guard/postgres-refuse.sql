-- rule: multiple_statements
SELECT set_config('default_transaction_read_only','off',false); DELETE FROM t
-- @@
-- rule: multiple_statements
BEGIN; SET TRANSACTION READ WRITE; DELETE FROM t
-- @@
-- rule: forbidden_function
SELECT set_config('default_transaction_read_only','off',false)
-- @@
-- rule: host_access
COPY (SELECT 1) TO PROGRAM 'id'
-- @@
-- rule: host_access
copy t to '/tmp/x'
-- @@
-- rule: forbidden_function
SELECT pg_read_file('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT PG_CATALOG.PG_READ_FILE('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT "pg_read_file"('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT pg_read_file /* x */ ('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT lo_import('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT pg_terminate_backend(1)
-- @@
-- rule: forbidden_function
SELECT * FROM pg_ls_dir('.')
-- @@
-- rule: forbidden_function
SELECT nextval('s')
-- @@
-- rule: forbidden_function
SELECT pg_advisory_lock(1)
-- @@
-- rule: forbidden_function
SELECT query_to_xml('delete from t', true, true, '')
-- @@
-- rule: forbidden_function
SELECT * FROM dblink('host=127.0.0.1', 'select 1') AS x(a int)
-- @@
-- rule: forbidden_function
WITH x AS (SELECT pg_reload_conf()) SELECT * FROM x
-- @@
-- rule: session_control
SET default_transaction_read_only = off
-- @@
-- rule: session_control
SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE
-- @@
-- rule: session_control
RESET ALL
-- @@
-- rule: session_control
LISTEN x
-- @@
-- rule: procedure_call
DO $$ BEGIN DELETE FROM t; END $$
-- @@
-- rule: procedure_call
CALL p()
-- @@
-- rule: locking_read
SELECT * FROM t FOR NO KEY UPDATE
-- @@
-- rule: locking_read
SELECT * FROM t FOR SHARE
-- @@
-- rule: data_modifying_statement
WITH u AS (UPDATE t SET a = 2 RETURNING a) SELECT * FROM u
-- @@
-- rule: maintenance
VACUUM t
-- @@
-- rule: maintenance
REFRESH MATERIALIZED VIEW v
-- @@
-- rule: not_read_only
SHOW ALL
-- @@
-- rule: forbidden_function
select SET_CONFIG('transaction_read_only', 'off', true)
-- @@
-- rule: forbidden_function
SELECT pg_catalog.set_config('default_transaction_read_only', 'off', false)
-- @@
-- rule: forbidden_function
SELECT lo_export(1, '/tmp/x')
-- @@
-- rule: forbidden_function
SELECT lo_unlink(1)
-- @@
-- rule: forbidden_function
SELECT pg_cancel_backend(1)
-- @@
-- rule: forbidden_function
SELECT setval('s', 10)
-- @@
-- rule: forbidden_function
SELECT pg_read_binary_file('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT * FROM pg_stat_file('/etc/passwd')
-- @@
-- rule: forbidden_function
SELECT pg_try_advisory_lock(1)
-- @@
-- rule: forbidden_function
SELECT a, (SELECT pg_terminate_backend(pid) FROM pg_stat_activity LIMIT 1) FROM t
-- @@
-- rule: forbidden_function
SELECT pg_logical_emit_message(true, 'x', 'y')
-- @@
-- rule: host_access
COPY t FROM '/tmp/x'
-- @@
-- rule: host_access
Copy (select 1) To Program 'id'
-- @@
-- rule: host_access
/* export */ COPY (SELECT * FROM t) TO '/tmp/t.csv'
-- @@
-- rule: multiple_statements
SELECT pg_sleep(0); DELETE FROM t
-- @@
-- rule: multiple_statements
TABLE t; DELETE FROM t
-- @@
-- rule: session_control
SET LOCAL statement_timeout = 0
-- @@
-- rule: session_control
SET ROLE postgres
-- @@
-- rule: session_control
BEGIN READ WRITE
-- @@
-- rule: session_control
START TRANSACTION READ WRITE
-- @@
-- rule: session_control
set transaction read write
-- @@
-- rule: session_control
NOTIFY x
-- @@
-- rule: data_modifying_statement
EXPLAIN (ANALYZE) DELETE FROM t
-- @@
-- rule: data_modifying_statement
explain analyze update t set a = 0
-- @@
-- rule: data_modifying_statement
MERGE INTO t USING t AS s ON t.a = s.a WHEN MATCHED THEN DELETE
-- @@
-- rule: locking_read
SELECT * FROM t FOR KEY SHARE
-- @@
-- rule: ddl_statement
CREATE TEMP TABLE x AS SELECT 1
-- @@
-- rule: ddl_statement
CREATE SEQUENCE s2
