-- rule: data_modifying_statement
DELETE FROM t
-- @@
-- rule: data_modifying_statement
dElEtE fRoM t
-- @@
-- rule: data_modifying_statement
/* harmless */ DELETE FROM t
-- @@
-- rule: data_modifying_statement
-- comment
DELETE FROM t
-- @@
-- rule: data_modifying_statement
	UPDATE t SET a = 1
-- @@
-- rule: data_modifying_statement
INSERT INTO t VALUES (1)
-- @@
-- rule: multiple_statements
SELECT 1; DELETE FROM t
-- @@
-- rule: multiple_statements
SELECT 1;DELETE FROM t;
-- @@
-- rule: ddl_statement
DROP TABLE t
-- @@
-- rule: ddl_statement
CREATE TABLE x (a int)
-- @@
-- rule: ddl_statement
CREATE TEMP TABLE x(a int)
-- @@
-- rule: ddl_statement
ALTER TABLE t ADD COLUMN b int
-- @@
-- rule: ddl_statement
TRUNCATE t
-- @@
-- rule: data_modifying_statement
WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d
-- @@
-- rule: data_modifying_statement
EXPLAIN ANALYZE DELETE FROM t
-- @@
-- rule: select_into
SELECT * INTO newtab FROM t
-- @@
-- rule: locking_read
SELECT * FROM t FOR UPDATE
-- @@
-- rule: session_control
BEGIN
-- @@
-- rule: session_control
COMMIT
-- @@
-- rule: empty
   
-- @@
-- rule: empty
/* only a comment */
-- @@
-- rule: empty
;
-- @@
-- rule: data_modifying_statement
delete/**/from t
-- @@
-- rule: data_modifying_statement
DELETE
FROM
  t
WHERE 1 = 1
-- @@
-- rule: data_modifying_statement
UPDATE t SET a = a + 1 WHERE a IN (SELECT a FROM t)
-- @@
-- rule: data_modifying_statement
INSERT INTO t SELECT * FROM t
-- @@
-- rule: data_modifying_statement
/* select */ insert into t values (4)
-- @@
-- rule: multiple_statements
SELECT 1;

DELETE FROM t
-- @@
-- rule: multiple_statements
SELECT 1 ; -- trailing
DELETE FROM t
-- @@
-- rule: ddl_statement
DROP TABLE IF EXISTS t
-- @@
-- rule: ddl_statement
drop table t
-- @@
-- rule: ddl_statement
CREATE VIEW v2 AS SELECT * FROM t
-- @@
-- rule: ddl_statement
CREATE TEMPORARY TABLE x AS SELECT * FROM t
-- @@
-- rule: ddl_statement
CREATE INDEX i ON t (a)
-- @@
-- rule: locking_read
select * from t for update
-- @@
-- rule: locking_read
SELECT * FROM t WHERE a = 1 FOR UPDATE NOWAIT
-- @@
-- rule: session_control
ROLLBACK
-- @@
-- rule: session_control
SAVEPOINT a
-- @@
-- rule: session_control
begin
