SELECT `c`.`name`, `c`.`country` FROM `customers` AS `c` ORDER BY `c`.`id` LIMIT 10, 20
-- @@
SELECT category, GROUP_CONCAT(name ORDER BY name SEPARATOR ', ') AS names FROM products GROUP BY category
-- @@
SELECT DATE_FORMAT(ordered_at, '%Y-%m') AS month, SUM(total) FROM orders GROUP BY month ORDER BY month
-- @@
SELECT JSON_UNQUOTE(JSON_EXTRACT(properties, '$.device')) AS device, COUNT(*) FROM web_events GROUP BY device
-- @@
SELECT IFNULL(customer_id, 0) AS customer, COUNT(*) FROM web_events GROUP BY customer ORDER BY 2 DESC LIMIT 5
-- @@
SELECT country, segment, COUNT(*) FROM customers GROUP BY country, segment WITH ROLLUP
-- @@
SELECT COUNT(*) FROM orders WHERE ordered_at > DATE_SUB('2025-12-31', INTERVAL 30 DAY)
-- @@
SELECT YEAR(ordered_at) AS y, MONTH(ordered_at) AS m, COUNT(*) FROM orders GROUP BY y, m
-- @@
SELECT CONCAT(name, ' <', email, '>') AS contact FROM customers LIMIT 5
-- @@
SELECT IF(total > 100, 'big', 'small') AS size, COUNT(*) FROM orders GROUP BY size
-- @@
SHOW TABLES
-- @@
DESCRIBE orders
-- @@
EXPLAIN SELECT * FROM orders WHERE customer_id = 42
-- @@
SELECT SLEEP(0)
-- @@
/* which columns hold money */ SHOW COLUMNS FROM orders LIKE '%total%'
-- @@
-- plan of the daily revenue query
EXPLAIN FORMAT=JSON SELECT DATE(ordered_at), SUM(total) FROM orders GROUP BY DATE(ordered_at)
