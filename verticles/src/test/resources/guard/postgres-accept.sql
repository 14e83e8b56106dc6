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
-- @@
-- monthly revenue with month-over-month change and a formatted label
SELECT to_char(month, 'YYYY-MM') AS month, revenue, round(100.0 * (revenue - lag(revenue) OVER w) / nullif(lag(revenue) OVER w, 0), 1) AS mom_pct FROM (SELECT date_trunc('month', ordered_at) AS month, sum(total) AS revenue FROM orders WHERE status <> 'cancelled' GROUP BY 1) m WINDOW w AS (ORDER BY month) ORDER BY month
-- @@
SELECT customer_id, first_value(ordered_at) OVER w AS first_order, last_value(ordered_at) OVER w AS last_order, nth_value(total, 2) OVER w AS second_total, percent_rank() OVER (ORDER BY total) AS pr, cume_dist() OVER (ORDER BY total) AS cd FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) LIMIT 50
-- @@
SELECT ordered_at::date AS day, sum(total) AS revenue, avg(sum(total)) OVER (ORDER BY ordered_at::date ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS revenue_7d_avg FROM orders GROUP BY ordered_at::date ORDER BY day DESC LIMIT 30
-- @@
SELECT properties ->> 'referrer' AS referrer, jsonb_typeof(properties -> 'items') AS items_type, count(*) FROM web_events WHERE jsonb_path_exists(properties, '$.query ? (@ like_regex "head")') OR properties ? 'items' GROUP BY 1, 2 ORDER BY 3 DESC
-- @@
SELECT kv.key, count(*) AS events, count(DISTINCT kv.value) AS distinct_values FROM web_events e CROSS JOIN LATERAL jsonb_each_text(e.properties) AS kv GROUP BY kv.key ORDER BY events DESC
-- @@
SELECT jsonb_build_object('customer', c.name, 'orders', jsonb_agg(jsonb_build_object('id', o.id, 'total', o.total) ORDER BY o.ordered_at)) AS doc FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.id <= 3 GROUP BY c.id, c.name
-- @@
SELECT jsonb_pretty(jsonb_set(properties, '{device}', to_jsonb(upper(properties ->> 'device')))) AS normalized, jsonb_array_length(jsonb_path_query_array(properties, '$.*')) AS n_values FROM web_events WHERE event_type = 'purchase' LIMIT 5
-- @@
SELECT json_agg(row_to_json(p)) FROM (SELECT sku, name, price FROM products ORDER BY price DESC LIMIT 3) p
-- @@
SELECT regexp_replace(url, '^/product/([A-Z]+)-.*$', '\1') AS category_prefix, count(*) FROM web_events WHERE url ~ '^/product/' GROUP BY 1 ORDER BY 2 DESC
-- @@
SELECT (regexp_match(url, 'q=([^&]+)'))[1] AS raw_query, replace(split_part(url, 'q=', 2), '+', ' ') AS query, initcap(properties ->> 'query') AS shown, count(*) FROM web_events WHERE event_type = 'search' GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 10
-- @@
SELECT left(sku, 3) AS prefix, right(sku, 5) AS serial, lpad(id::text, 6, '0') AS padded_id, translate(name, 'äöü', 'aou') AS ascii_name, starts_with(sku, 'ELE') AS is_electronics, position('-' IN sku) AS dash_at, substring(name FROM 1 FOR 12) AS short_name, trim(BOTH ' ' FROM name) AS trimmed FROM products LIMIT 20
-- @@
SELECT format('%s (%s): %s orders', c.name, c.country, count(o.id)) AS line, to_char(sum(o.total), 'FM999G999D00') AS spent, pg_size_pretty(sum(length(c.email))::bigint) AS email_bytes FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id, c.name, c.country ORDER BY sum(o.total) DESC LIMIT 10
-- @@
SELECT age(max(ordered_at), min(ordered_at)) AS span, justify_interval(max(ordered_at) - min(ordered_at)) AS span_justified, extract(epoch FROM max(ordered_at) - min(ordered_at)) / 86400 AS days, make_date(2025, 12, 31) - max(ordered_at)::date AS days_to_year_end FROM orders
-- @@
SELECT date_bin('15 minutes', occurred_at, TIMESTAMP '2025-01-01') AS slot, count(*) FROM web_events WHERE occurred_at >= TIMESTAMP '2025-12-01' GROUP BY 1 ORDER BY 1 LIMIT 20
-- @@
SELECT date_part('dow', ordered_at) AS weekday, to_char(ordered_at, 'Dy') AS day_name, count(*), sum(total) FROM orders WHERE ordered_at >= current_date - make_interval(years => 3) GROUP BY 1, 2 ORDER BY 1
-- @@
SELECT c.segment, count(*) AS customers, count(*) FILTER (WHERE age(TIMESTAMP '2025-12-31', c.created_at) > INTERVAL '1 year') AS older_than_a_year, to_timestamp(avg(extract(epoch FROM c.created_at))) AS avg_signup FROM customers c GROUP BY c.segment
-- @@
SELECT width_bucket(total, 0, 1000, 10) AS bucket, count(*), min(total), max(total), round(stddev(total), 2) AS sd FROM orders GROUP BY 1 ORDER BY 1
-- @@
SELECT corr(p.price, s.units) AS price_units_corr, regr_slope(s.units, p.price) AS slope, percentile_disc(0.9) WITHIN GROUP (ORDER BY p.price) AS p90_price, mode() WITHIN GROUP (ORDER BY p.category) AS commonest_category FROM products p JOIN (SELECT product_id, sum(quantity) AS units FROM order_items GROUP BY product_id) s ON s.product_id = p.id
-- @@
SELECT category, ceil(avg(price)) AS ceil_avg, floor(min(price)) AS floor_min, trunc(max(price), -1) AS max_tens, power(2, count(*) % 5) AS pow, ln(sum(price)) AS ln_sum, div(sum(price)::numeric, 100) AS hundreds, mod(count(*), 7) AS mod7, greatest(max(price), 100) AS at_least_100, least(min(price), 10) AS at_most_10 FROM products GROUP BY category
-- @@
SELECT c.country, array_agg(DISTINCT o.status ORDER BY o.status) AS statuses, array_length(array_agg(o.id), 1) AS n_orders, cardinality(array_agg(DISTINCT o.shipping_country)) AS ship_countries FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.country
-- @@
SELECT word, count(*) FROM products, unnest(string_to_array(lower(name), ' ')) AS word GROUP BY word ORDER BY 2 DESC LIMIT 15
-- @@
SELECT o.id, array_to_string(array_agg(p.sku ORDER BY p.sku), ',') AS skus, array_position(array_agg(p.category ORDER BY p.sku), 'Books') AS first_book FROM orders o JOIN order_items oi ON oi.order_id = o.id JOIN products p ON p.id = oi.product_id GROUP BY o.id ORDER BY o.id LIMIT 20
-- @@
SELECT count(*) AS orders_in_q4 FROM orders WHERE tsrange('2025-10-01', '2026-01-01') @> ordered_at
-- @@
SELECT customer_id, range_agg(daterange(ordered_at::date, ordered_at::date + 7)) AS active_weeks, lower(daterange(min(ordered_at)::date, max(ordered_at)::date, '[]')) AS first_day, upper_inf(daterange(min(ordered_at)::date, NULL)) AS still_open FROM orders WHERE customer_id <= 5 GROUP BY customer_id
-- @@
SELECT name, ts_rank(to_tsvector('english', name), websearch_to_tsquery('english', 'leather OR wooden')) AS rank, ts_headline('english', name, plainto_tsquery('english', 'wooden')) AS snippet FROM products WHERE to_tsvector('english', name) @@ to_tsquery('english', 'leather | wooden') ORDER BY rank DESC LIMIT 10
-- @@
SELECT xmlserialize(CONTENT xmlelement(name product, xmlattributes(sku), xmlforest(name, category, price)) AS text) AS x FROM products ORDER BY id LIMIT 5
-- @@
SELECT xmlserialize(CONTENT xmlagg(xmlelement(name country, country) ORDER BY country) AS text) AS countries, (xpath('/countries/c[1]/text()', xmlparse(DOCUMENT '<countries>' || string_agg('<c>' || country || '</c>', '' ORDER BY country) || '</countries>')))[1]::text AS first_country FROM (SELECT DISTINCT country FROM customers) c
-- @@
SELECT md5(email) AS email_hash, encode(sha256(convert_to(email, 'UTF8')), 'hex') AS email_sha256, encode(convert_to(name, 'UTF8'), 'base64') AS name_b64, octet_length(name) AS bytes FROM customers LIMIT 10
-- @@
SELECT gen_random_uuid() AS extract_id, count(*) AS rows_exported, current_database() AS db, current_user AS who, version() AS server FROM orders
-- @@
SELECT family(ip) AS family, host(ip) AS host, masklen(ip) AS bits, network(set_masklen(ip, 24)) AS subnet24 FROM (VALUES ('1.2.3.4'::inet), ('1.2.3.22/16'::inet)) AS v(ip)
-- @@
SELECT p.category, box(point(min(p.price), min(s.units)), point(max(p.price), max(s.units))) AS price_units_box, point(avg(p.price), avg(s.units)) <-> point(0, 0) AS distance_from_origin FROM products p JOIN (SELECT product_id, sum(quantity)::float8 AS units FROM order_items GROUP BY product_id) s ON s.product_id = p.id GROUP BY p.category
-- @@
SELECT country, segment, count(*), grouping(country, segment) AS level FROM customers GROUP BY CUBE (country, segment) ORDER BY level, country, segment
-- @@
SELECT coalesce(shipping_country, 'unknown') AS country, num_nulls(customer_id, shipping_country) AS missing, count(*) FROM orders GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 10
-- @@
SELECT pg_size_pretty(pg_total_relation_size('orders')) AS orders_size, pg_size_pretty(pg_relation_size('web_events')) AS events_heap, to_regclass('public.order_items') IS NOT NULL AS has_items, has_table_privilege('payments', 'SELECT') AS can_read_payments, col_description('orders'::regclass, 6) AS total_comment
-- @@
SELECT round(avg(total), 2) AS sampled_avg_total FROM orders TABLESAMPLE BERNOULLI (10) REPEATABLE (42)
