SELECT count(*) FROM customers
-- @@
SELECT id, name, email FROM customers WHERE country = 'Germany' ORDER BY created_at DESC LIMIT 10
-- @@
SELECT country, count(*) AS customers FROM customers GROUP BY country ORDER BY customers DESC
-- @@
SELECT segment, country, count(*) AS n FROM customers GROUP BY segment, country HAVING count(*) > 10 ORDER BY n DESC
-- @@
SELECT c.name, count(o.id) AS orders, sum(o.total) AS revenue FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name ORDER BY revenue DESC LIMIT 20
-- @@
SELECT p.category, sum(oi.quantity * oi.unit_price) AS revenue FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category ORDER BY revenue DESC
-- @@
SELECT o.status, count(*) AS n, round(avg(o.total), 2) AS avg_total FROM orders o GROUP BY o.status
-- @@
SELECT c.id, c.name FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id) LIMIT 50
-- @@
SELECT id, name FROM products WHERE id IN (SELECT product_id FROM order_items GROUP BY product_id HAVING sum(quantity) > 100)
-- @@
SELECT id, customer_id, total, row_number() OVER (PARTITION BY customer_id ORDER BY ordered_at) AS nth_order FROM orders LIMIT 100
-- @@
SELECT customer_id, ordered_at, total, sum(total) OVER (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running_total FROM orders LIMIT 100
-- @@
SELECT id, total, lag(total) OVER (ORDER BY ordered_at) AS prev_total, lead(total) OVER (ORDER BY ordered_at) AS next_total FROM orders LIMIT 100
-- @@
SELECT name, price, rank() OVER (PARTITION BY category ORDER BY price DESC) AS price_rank FROM products
-- @@
SELECT name, price, ntile(4) OVER (ORDER BY price) AS quartile FROM products
-- @@
SELECT category, name, price FROM (SELECT category, name, price, dense_rank() OVER (PARTITION BY category ORDER BY price DESC) AS r FROM products) ranked WHERE r <= 3
-- @@
WITH big_spenders AS (SELECT customer_id, sum(total) AS spent FROM orders GROUP BY customer_id HAVING sum(total) > 1000) SELECT c.name, b.spent FROM big_spenders b JOIN customers c ON c.id = b.customer_id ORDER BY b.spent DESC LIMIT 10
-- @@
WITH per_customer AS (SELECT customer_id, count(*) AS n FROM orders GROUP BY customer_id), buckets AS (SELECT CASE WHEN n = 1 THEN 'one' WHEN n <= 5 THEN 'few' ELSE 'many' END AS bucket FROM per_customer) SELECT bucket, count(*) FROM buckets GROUP BY bucket
-- @@
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10) SELECT i FROM n
-- @@
WITH RECURSIVE chain(id, depth) AS (SELECT id, 0 FROM customers WHERE id = 1 UNION ALL SELECT c.id, chain.depth + 1 FROM customers c JOIN chain ON c.id = chain.id + 1 WHERE chain.depth < 5) SELECT * FROM chain
-- @@
SELECT method, status, count(*) AS n, sum(amount) AS amount FROM payments GROUP BY method, status ORDER BY method, status
-- @@
SELECT o.id, o.total, coalesce(sum(p.amount), 0) AS paid FROM orders o LEFT JOIN payments p ON p.order_id = o.id AND p.status = 'succeeded' GROUP BY o.id, o.total HAVING coalesce(sum(p.amount), 0) < o.total LIMIT 50
-- @@
SELECT event_type, count(*) AS events, count(DISTINCT session_id) AS sessions FROM web_events GROUP BY event_type
-- @@
SELECT count(*) AS anonymous_events FROM web_events WHERE customer_id IS NULL
-- @@
SELECT c.country, count(DISTINCT c.id) AS buyers FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id AND o.status = 'delivered') GROUP BY c.country
-- @@
SELECT name FROM customers WHERE lower(name) LIKE '%schmidt%'
-- @@
SELECT id, email FROM customers WHERE email LIKE '%@example.%' AND segment <> 'consumer' LIMIT 20
-- @@
SELECT substr(name, 1, 1) AS initial, count(*) FROM customers GROUP BY substr(name, 1, 1) ORDER BY 1
-- @@
SELECT upper(category) AS category, min(price) AS cheapest, max(price) AS dearest FROM products GROUP BY category
-- @@
SELECT id, name, length(name) AS len FROM products ORDER BY len DESC LIMIT 5
-- @@
SELECT id, total, CASE WHEN total >= 500 THEN 'large' WHEN total >= 100 THEN 'medium' ELSE 'small' END AS size FROM orders LIMIT 100
-- @@
SELECT status, sum(CASE WHEN total > 200 THEN 1 ELSE 0 END) AS big_orders, count(*) AS all_orders FROM orders GROUP BY status
-- @@
SELECT nullif(shipping_country, '') AS country, count(*) FROM orders GROUP BY nullif(shipping_country, '')
-- @@
SELECT product_id, sum(quantity) AS units FROM order_items GROUP BY product_id ORDER BY units DESC LIMIT 10 OFFSET 10
-- @@
SELECT customer_id FROM orders WHERE status = 'refunded' UNION SELECT customer_id FROM orders WHERE status = 'cancelled'
-- @@
SELECT customer_id FROM orders WHERE status = 'delivered' INTERSECT SELECT customer_id FROM web_events WHERE event_type = 'search'
-- @@
SELECT id FROM customers EXCEPT SELECT customer_id FROM orders
-- @@
SELECT 'orders' AS what, count(*) AS n FROM orders UNION ALL SELECT 'payments', count(*) FROM payments UNION ALL SELECT 'items', count(*) FROM order_items
-- @@
SELECT o.id, (SELECT count(*) FROM order_items oi WHERE oi.order_id = o.id) AS items FROM orders o ORDER BY o.id LIMIT 20
-- @@
SELECT p.id, p.name FROM products p WHERE p.price > (SELECT avg(price) FROM products WHERE category = p.category)
-- @@
SELECT oi.order_id, sum(oi.quantity * oi.unit_price * (1 - oi.discount)) AS net FROM order_items oi GROUP BY oi.order_id ORDER BY net DESC LIMIT 10
-- @@
SELECT abs(o.total - coalesce(x.items_total, 0)) AS diff, o.id FROM orders o LEFT JOIN (SELECT order_id, sum(quantity * unit_price) AS items_total FROM order_items GROUP BY order_id) x ON x.order_id = o.id ORDER BY diff DESC LIMIT 5
-- @@
SELECT count(*) AS n, max(ordered_at) AS latest FROM orders
-- @@
SELECT c.segment, avg(o.total) AS aov FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.status IN ('paid', 'shipped', 'delivered') GROUP BY c.segment
-- @@
SELECT p.name, count(DISTINCT oi.order_id) AS orders FROM products p LEFT JOIN order_items oi ON oi.product_id = p.id WHERE p.active = TRUE GROUP BY p.id, p.name ORDER BY orders ASC LIMIT 10
-- @@
SELECT min(created_at) AS first_signup, max(created_at) AS last_signup FROM customers
-- @@
SELECT count(*) FROM orders WHERE ordered_at >= '2025-01-01' AND ordered_at < '2025-02-01'
-- @@
SELECT a.id AS a_id, b.id AS b_id FROM customers a JOIN customers b ON a.email = b.email AND a.id < b.id LIMIT 5
-- @@
SELECT pay.method, count(*) FROM payments pay JOIN orders o ON o.id = pay.order_id JOIN customers c ON c.id = o.customer_id WHERE c.country = 'France' GROUP BY pay.method
-- @@
SELECT category, count(*) AS products, sum(CASE WHEN active THEN 1 ELSE 0 END) AS active_products FROM products GROUP BY category
-- @@
SELECT x.bucket, count(*) FROM (SELECT CASE WHEN quantity >= 3 THEN 'bulk' ELSE 'single' END AS bucket FROM order_items) x GROUP BY x.bucket
-- @@
SELECT DISTINCT shipping_country FROM orders ORDER BY shipping_country
-- @@
SELECT customer_id, count(*) AS n FROM web_events WHERE customer_id IS NOT NULL GROUP BY customer_id ORDER BY n DESC LIMIT 10
-- @@
SELECT url, count(*) AS views FROM web_events WHERE event_type = 'page_view' GROUP BY url ORDER BY views DESC LIMIT 10
-- @@
SELECT count(*) AS with_discount FROM order_items WHERE discount > 0
-- @@
SELECT (SELECT count(*) FROM customers) AS customers, (SELECT count(*) FROM orders) AS orders
-- @@
VALUES (1, 'a'), (2, 'b')
-- @@
SELECT 1
