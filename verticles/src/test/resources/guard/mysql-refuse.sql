-- rule: session_control
SET GLOBAL read_only=0
-- @@
-- rule: session_control
set global read_only = OFF
-- @@
-- rule: select_into
SELECT * FROM t INTO OUTFILE '/tmp/x'
-- @@
-- rule: select_into
SELECT * FROM t INTO DUMPFILE '/tmp/x'
-- @@
-- rule: select_into
SELECT a INTO @v FROM t
-- @@
-- rule: host_access
HANDLER t OPEN
-- @@
-- rule: host_access
LOAD DATA INFILE '/etc/passwd' INTO TABLE t
-- @@
-- rule: forbidden_function
SELECT GET_LOCK('x',1)
-- @@
-- rule: forbidden_function
SELECT load_file('/etc/passwd')
-- @@
-- rule: executable_comment
/*!50000 DELETE FROM t */
-- @@
-- rule: executable_comment
SELECT 1 /*!50000 ; DELETE FROM t */
-- @@
-- rule: executable_comment
SELECT /*M! 1, */ 2
-- @@
-- rule: locking_read
SELECT * FROM t LOCK IN SHARE MODE
-- @@
-- rule: data_modifying_statement
REPLACE INTO t VALUES (1)
-- @@
-- rule: session_control
USE mysql
-- @@
-- rule: show
SHOW PROCESSLIST
-- @@
-- rule: multiple_statements
SELECT 'a\'; DELETE FROM t; --'; DELETE FROM t
-- @@
-- rule: procedure_call
PREPARE s FROM 'DELETE FROM t'
-- @@
-- rule: session_control
SET @@global.read_only = 0
-- @@
-- rule: session_control
SET SESSION TRANSACTION READ WRITE
-- @@
-- rule: session_control
SET TRANSACTION READ WRITE
-- @@
-- rule: session_control
START TRANSACTION READ WRITE
-- @@
-- rule: session_control
/* tidy */ SET   GLOBAL   max_connections = 1
-- @@
-- rule: select_into
select * from t into outfile '/tmp/y'
-- @@
-- rule: select_into
SELECT * FROM t INTO/**/OUTFILE '/tmp/x'
-- @@
-- rule: select_into
SELECT a FROM t LIMIT 1 INTO @v
-- @@
-- rule: forbidden_function
SELECT RELEASE_LOCK('x')
-- @@
-- rule: forbidden_function
SELECT IS_FREE_LOCK('x')
-- @@
-- rule: forbidden_function
SELECT LOAD_FILE('/etc/passwd')
-- @@
-- rule: forbidden_function
select get_lock ('x', 1)
-- @@
-- rule: host_access
HANDLER t READ FIRST
-- @@
-- rule: host_access
load data local infile '/etc/passwd' into table t
-- @@
-- rule: executable_comment
/*!DELETE FROM t*/
-- @@
-- rule: executable_comment
SELECT 1 /*! , (SELECT GET_LOCK('x', 1)) */
-- @@
-- rule: locking_read
SELECT * FROM t FOR SHARE
-- @@
-- rule: locking_read
SELECT * FROM t WHERE a = 1 FOR UPDATE SKIP LOCKED
-- @@
-- rule: data_modifying_statement
INSERT IGNORE INTO t VALUES (1)
-- @@
-- rule: data_modifying_statement
EXPLAIN FORMAT=JSON DELETE FROM t
-- @@
-- rule: data_modifying_statement
explain format=tree update t set a = 1
-- @@
-- rule: data_modifying_statement
EXPLAIN ANALYZE DELETE FROM t
-- @@
-- rule: multiple_statements
EXPLAIN FORMAT=JSON SELECT 1; DELETE FROM t
-- @@
-- rule: procedure_call
CALL p()
-- @@
-- rule: show
SHOW GRANTS
-- @@
-- rule: show
show variables like 'read_only'
-- @@
-- rule: optimizer_hint
SELECT /*+ SET_VAR(sql_select_limit=100000000) */ a FROM t
-- @@
-- rule: optimizer_hint
SELECT /*+ MAX_EXECUTION_TIME(0) */ a FROM t
-- @@
-- rule: optimizer_hint
SELECT /*+ BKA(t) set_var(max_execution_time = 0) */ a FROM t
