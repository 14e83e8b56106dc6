SELECT strftime('%Y-%m', ordered_at) AS month, sum(total) FROM orders GROUP BY month ORDER BY month
-- @@
SELECT id, julianday('2025-12-31') - julianday(ordered_at) AS age_days FROM orders LIMIT 10
-- @@
SELECT printf('%.2f', avg(total)) AS avg_total FROM orders
-- @@
SELECT iif(total > 100, 'big', 'small') AS size, count(*) FROM orders GROUP BY size
-- @@
SELECT json_extract(properties, '$.device') AS device, count(*) FROM web_events GROUP BY device
-- @@
SELECT category, group_concat(name, ', ') AS names FROM products GROUP BY category
-- @@
SELECT date(ordered_at) AS day, count(*) FROM orders GROUP BY day ORDER BY day DESC LIMIT 7
-- @@
SELECT name FROM customers WHERE name GLOB 'A*' LIMIT 5
-- @@
SELECT typeof(total), count(*) FROM orders GROUP BY 1
-- @@
EXPLAIN QUERY PLAN SELECT * FROM orders WHERE customer_id = 42
-- @@
PRAGMA table_info('orders')
-- @@
SELECT name FROM sqlite_master WHERE type = 'table'
