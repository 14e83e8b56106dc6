SELECT DISTINCT ON (customer_id) customer_id, id, ordered_at FROM orders ORDER BY customer_id, ordered_at DESC
-- @@
SELECT status, count(*) FILTER (WHERE total > 100) AS big, count(*) AS all_orders FROM orders GROUP BY status
-- @@
SELECT country, segment, count(*) FROM customers GROUP BY GROUPING SETS ((country), (segment), ())
-- @@
SELECT country, segment, count(*) FROM customers GROUP BY ROLLUP (country, segment)
-- @@
SELECT date_trunc('month', ordered_at) AS month, sum(total) FROM orders GROUP BY 1 ORDER BY 1
-- @@
SELECT id, total::float8 AS total_f, ordered_at::date AS day FROM orders LIMIT 10
-- @@
SELECT count(*) FROM orders WHERE ordered_at > TIMESTAMP '2025-12-31' - INTERVAL '30 days'
-- @@
SELECT properties ->> 'device' AS device, count(*) FROM web_events GROUP BY 1
-- @@
SELECT properties -> 'referrer' AS referrer FROM web_events WHERE properties ? 'referrer' LIMIT 5
-- @@
SELECT c.name, last_order.ordered_at FROM customers c CROSS JOIN LATERAL (SELECT o.ordered_at FROM orders o WHERE o.customer_id = c.id ORDER BY o.ordered_at DESC LIMIT 1) last_order LIMIT 10
-- @@
SELECT category, string_agg(name, ', ' ORDER BY name) AS names FROM products GROUP BY category
-- @@
SELECT g AS n FROM generate_series(1, 5) AS g
-- @@
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY total) AS median_total FROM orders
-- @@
SELECT name FROM customers WHERE name ILIKE '%müller%'
-- @@
SELECT extract(year FROM ordered_at) AS y, count(*) FROM orders GROUP BY 1
-- @@
EXPLAIN SELECT * FROM orders WHERE customer_id = 42
-- @@
SELECT pg_sleep(0)
-- @@
SELECT current_setting('TimeZone')
