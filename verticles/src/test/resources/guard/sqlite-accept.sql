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
-- @@
-- monthly revenue with month-over-month change
SELECT month, revenue, round(100.0 * (revenue - lag(revenue) OVER w) / nullif(lag(revenue) OVER w, 0), 1) AS mom_pct FROM (SELECT strftime('%Y-%m', ordered_at) AS month, sum(total) AS revenue FROM orders WHERE status <> 'cancelled' GROUP BY month) WINDOW w AS (ORDER BY month) ORDER BY month
-- @@
SELECT customer_id, ordered_at, total, first_value(total) OVER w AS first_total, last_value(total) OVER w AS last_total, nth_value(total, 2) OVER w AS second_total, percent_rank() OVER (ORDER BY total) AS pr, cume_dist() OVER (ORDER BY total) AS cd FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) LIMIT 50
-- @@
SELECT date(ordered_at) AS day, sum(total) AS revenue, avg(sum(total)) OVER (ORDER BY date(ordered_at) ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS revenue_7d_avg FROM orders GROUP BY date(ordered_at) ORDER BY day DESC LIMIT 30
-- @@
SELECT j.key, count(*) AS events, count(DISTINCT j.value) AS distinct_values FROM web_events e, json_each(e.properties) AS j GROUP BY j.key ORDER BY events DESC
-- @@
SELECT t.fullkey, t.type, count(*) FROM web_events e, json_tree(e.properties) AS t WHERE e.event_type = 'purchase' AND t.atom IS NOT NULL GROUP BY t.fullkey, t.type ORDER BY 3 DESC
-- @@
SELECT properties ->> '$.referrer' AS referrer, json_type(properties, '$.items') AS items_type, count(*) FROM web_events WHERE json_extract(properties, '$.query') LIKE '%head%' OR properties -> '$.items' IS NOT NULL GROUP BY 1, 2 ORDER BY 3 DESC
-- @@
SELECT json_object('customer', c.name, 'orders', json_group_array(json_object('id', o.id, 'total', o.total))) AS doc FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id <= 3 GROUP BY c.id, c.name
-- @@
SELECT c.country, json_group_object(c.email, c.segment) AS segments, json_array_length(json_group_array(c.id)) AS n FROM customers c WHERE c.id <= 20 GROUP BY c.country
-- @@
SELECT json_set(properties, '$.device', upper(properties ->> '$.device')) AS normalized, json_remove(properties, '$.referrer') AS without_referrer, json_valid(properties) AS ok, json_patch(properties, '{"seen":true}') AS patched, json_quote(url) AS quoted FROM web_events WHERE event_type = 'purchase' LIMIT 5
-- @@
SELECT substr(url, instr(url, 'q=') + 2) AS raw_query, replace(substr(url, instr(url, 'q=') + 2), '+', ' ') AS query, count(*) FROM web_events WHERE event_type = 'search' AND url GLOB '/search?q=*' GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10
-- @@
SELECT substr(sku, 1, 3) AS prefix, substr(sku, -5) AS serial, printf('%06d', id) AS padded_id, trim(name) AS trimmed, ltrim(sku, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') AS dash_serial, rtrim(name, 'e') AS no_trailing_e, unicode(name) AS first_code, char(unicode(name)) AS first_char, concat_ws('/', category, sku) AS path, octet_length(name) AS bytes FROM products LIMIT 20
-- @@
SELECT leftstr(sku, 3) AS prefix, rightstr(sku, 5) AS serial, padl(id, 6) AS padded, proper(lower(name)) AS title, charindex('-', sku) AS dash_at, replicate('*', CAST(price / 100 AS INTEGER)) AS bar, reverse(sku) AS rev FROM products ORDER BY price DESC LIMIT 10
-- @@
SELECT format('%s (%s): %d orders', c.name, c.country, count(o.id)) AS line, printf('%,.2f', sum(o.total)) AS spent, quote(c.email) AS quoted_email FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name, c.country ORDER BY sum(o.total) DESC LIMIT 10
-- @@
SELECT julianday(max(ordered_at)) - julianday(min(ordered_at)) AS span_days, timediff(max(ordered_at), min(ordered_at)) AS span, unixepoch(max(ordered_at)) AS epoch, datetime(unixepoch(min(ordered_at)), 'unixepoch') AS back, date(max(ordered_at), 'start of month', '+1 month', '-1 day') AS month_end, time(min(ordered_at)) AS first_time FROM orders
-- @@
SELECT strftime('%w', ordered_at) AS weekday, CASE strftime('%w', ordered_at) WHEN '0' THEN 'Sun' WHEN '6' THEN 'Sat' ELSE 'weekday' END AS kind, count(*), sum(total) FROM orders WHERE ordered_at >= date('2025-12-31', '-3 years') GROUP BY 1, 2 ORDER BY 1
-- @@
SELECT segment, count(*) AS customers, sum(julianday('2025-12-31') - julianday(created_at) > 365) AS older_than_a_year, datetime(avg(unixepoch(created_at)), 'unixepoch') AS avg_signup FROM customers GROUP BY segment
-- @@
SELECT CAST(total / 100 AS INTEGER) * 100 AS bucket, count(*), min(total), max(total), round(stdev(total), 2) AS sd, round(variance(total), 2) AS var FROM orders GROUP BY bucket ORDER BY bucket
-- @@
SELECT category, median(price) AS median_price, percentile(price, 90) AS p90_price, percentile_cont(price, 0.25) AS q1, percentile_disc(price, 0.75) AS q3, lower_quartile(price) AS lq, upper_quartile(price) AS uq, mode(active) AS usual_active FROM products GROUP BY category
-- @@
SELECT category, ceil(avg(price)) AS ceil_avg, floor(min(price)) AS floor_min, trunc(max(price)) AS max_int, pow(2, count(*) % 5) AS pow, ln(sum(price)) AS ln_sum, log2(count(*)) AS log2_n, sqrt(sum(price)) AS root, square(min(price)) AS sq, sign(min(price) - 10) AS cheap_sign, mod(count(*), 7) AS mod7, degrees(pi()) AS half_turn, max(max(price), 100) AS at_least_100, min(min(price), 10) AS at_most_10 FROM products GROUP BY category
-- @@
SELECT hex(email) AS email_hex, unhex(hex(country)) AS roundtrip, length(randomblob(16)) AS random_bytes, length(zeroblob(4)) AS zeros, typeof(total) AS total_type FROM customers c JOIN orders o ON o.customer_id = c.id LIMIT 10
-- @@
SELECT iif(total > 100, 'big', 'small') AS size, CASE WHEN status IN ('cancelled', 'refunded') THEN 'lost' ELSE 'kept' END AS outcome, coalesce(nullif(shipping_country, ''), 'unknown') AS country, ifnull(NULL, 'n/a') AS placeholder, count(*) FROM orders WHERE likely(total > 0) GROUP BY size, outcome, country ORDER BY 5 DESC LIMIT 20
-- @@
SELECT s.method, s.status, count(*) AS n, round(100.0 * count(*) / sum(count(*)) OVER (PARTITION BY s.method), 1) AS pct_of_method FROM payments s GROUP BY s.method, s.status ORDER BY s.method, n DESC
-- @@
WITH ranked AS (SELECT p.category, p.name, sum(oi.quantity) AS units, row_number() OVER (PARTITION BY p.category ORDER BY sum(oi.quantity) DESC) AS rn FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category, p.name) SELECT category, name, units FROM ranked WHERE rn <= 3 ORDER BY category, rn
-- @@
SELECT c.country, group_concat(DISTINCT o.status) AS statuses, substr(string_agg(o.shipping_country, ';' ORDER BY o.ordered_at DESC), 1, 60) AS latest_ship_countries, total(o.total) AS revenue FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.country
-- @@
SELECT name, type, pk FROM pragma_table_info('orders') ORDER BY cid
-- @@
SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 10
-- @@
SELECT sqlite_version() AS version, sqlite_compileoption_used('ENABLE_FTS5') AS has_fts5, (SELECT count(*) FROM orders) AS orders
-- @@
SELECT o.id, o.total, round(sum(oi.quantity * oi.unit_price), 2) AS items_total, abs(o.total - sum(oi.quantity * oi.unit_price)) < 0.01 AS consistent FROM orders o JOIN order_items oi ON oi.order_id = o.id GROUP BY o.id, o.total ORDER BY o.id LIMIT 20
-- @@
SELECT c.name, strftime('%Y', o.ordered_at) AS y, sum(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.ordered_at BETWEEN '2025-01-01' AND '2025-12-31 23:59:59' GROUP BY c.id, c.name, y HAVING spent > 1000 ORDER BY spent DESC LIMIT 10
-- @@
SELECT jsonb_extract(jsonb(properties), '$.device') AS device, count(*) FROM web_events GROUP BY 1
