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
