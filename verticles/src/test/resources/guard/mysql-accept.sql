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
-- @@
-- monthly revenue with month-over-month change
SELECT month, revenue, ROUND(100 * (revenue - LAG(revenue) OVER (ORDER BY month)) / NULLIF(LAG(revenue) OVER (ORDER BY month), 0), 1) AS mom_pct FROM (SELECT DATE_FORMAT(ordered_at, '%Y-%m') AS month, SUM(total) AS revenue FROM orders WHERE status <> 'cancelled' GROUP BY month) m ORDER BY month
-- @@
SELECT customer_id, ordered_at, total, FIRST_VALUE(total) OVER w AS first_total, LAST_VALUE(total) OVER w AS last_total, NTH_VALUE(total, 2) OVER w AS second_total, PERCENT_RANK() OVER (ORDER BY total) AS pr, CUME_DIST() OVER (ORDER BY total) AS cd FROM orders WINDOW w AS (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) LIMIT 50
-- @@
SELECT DISTINCT category, MEDIAN(price) OVER (PARTITION BY category) AS median_price, PERCENTILE_CONT(0.9) WITHIN GROUP (ORDER BY price) OVER (PARTITION BY category) AS p90_price FROM products
-- @@
SELECT DATE(ordered_at) AS day, SUM(total) AS revenue, AVG(SUM(total)) OVER (ORDER BY DATE(ordered_at) ROWS BETWEEN 6 PRECEDING AND CURRENT ROW) AS revenue_7d_avg FROM orders GROUP BY DATE(ordered_at) ORDER BY day DESC LIMIT 30
-- @@
SELECT jt.device, jt.referrer, COUNT(*) AS events FROM web_events e, JSON_TABLE(e.properties, '$' COLUMNS (device VARCHAR(20) PATH '$.device', referrer VARCHAR(40) PATH '$.referrer')) AS jt GROUP BY jt.device, jt.referrer ORDER BY events DESC
-- @@
SELECT c.country, JSON_ARRAYAGG(c.name) AS names, JSON_OBJECTAGG(c.email, c.segment) AS segments FROM customers c WHERE c.id <= 20 GROUP BY c.country
-- @@
SELECT JSON_VALUE(properties, '$.query') AS query, JSON_LENGTH(properties) AS n_keys, JSON_KEYS(properties) AS keys_, JSON_CONTAINS_PATH(properties, 'one', '$.sku') AS has_sku, JSON_TYPE(JSON_EXTRACT(properties, '$.device')) AS device_type FROM web_events WHERE event_type = 'search' LIMIT 10
-- @@
SELECT JSON_OBJECT('id', id, 'sku', sku, 'price', price) AS doc, JSON_ARRAY(category, active) AS tags, JSON_SET(JSON_OBJECT('sku', sku), '$.on_sale', price < 20) AS flagged, JSON_VALID(JSON_QUOTE(name)) AS ok FROM products ORDER BY price DESC LIMIT 5
-- @@
SELECT event_type, COUNT(*) FROM web_events WHERE JSON_EXISTS(properties, '$.items') OR JSON_SEARCH(properties, 'one', 'google') IS NOT NULL GROUP BY event_type
-- @@
SELECT LEFT(REGEXP_SUBSTR(url, '[A-Z]{3}-[0-9]+'), 3) AS category_prefix, COUNT(*) FROM web_events WHERE url REGEXP '^/product/' GROUP BY category_prefix ORDER BY 2 DESC
-- @@
SELECT REPLACE(SUBSTRING_INDEX(url, 'q=', -1), '+', ' ') AS query, REGEXP_REPLACE(url, '^/search\\?q=', '') AS raw, REGEXP_INSTR(url, 'q=') AS at, COUNT(*) FROM web_events WHERE event_type = 'search' GROUP BY query, raw, at ORDER BY 4 DESC LIMIT 10
-- @@
SELECT LEFT(sku, 3) AS prefix, RIGHT(sku, 5) AS serial, LPAD(id, 6, '0') AS padded_id, LOCATE('-', sku) AS dash_at, MID(name, 1, 12) AS short_name, TRIM(BOTH ' ' FROM name) AS trimmed, UCASE(category) AS cat, CHAR_LENGTH(name) AS chars, INSTR(name, 'Leather') AS leather_at, REVERSE(sku) AS rev, CONCAT_WS('/', category, sku) AS path FROM products LIMIT 20
-- @@
SELECT category, GROUP_CONCAT(DISTINCT LEFT(sku, 3) ORDER BY sku SEPARATOR ',') AS prefixes, FIND_IN_SET(category, 'Books,Toys') > 0 AS for_kids_or_readers, FIELD(category, 'Electronics', 'Home', 'Garden') AS shelf, ELT(1 + (COUNT(*) > 50), 'small', 'large') AS size FROM products GROUP BY category
-- @@
SELECT FORMAT(SUM(total), 2) AS revenue, FORMAT(AVG(total), 2, 'de_DE') AS avg_de, HEX(COUNT(*)) AS n_hex, CONV(COUNT(*), 10, 2) AS n_bin, QUOTE(MAX(shipping_country)) AS quoted, CAST(SUM(total) AS DECIMAL(14, 0)) AS rounded, CAST(MIN(ordered_at) AS DATE) AS first_day, CONVERT(MAX(shipping_country) USING utf8mb4) AS last_country FROM orders
-- @@
SELECT DATEDIFF(MAX(ordered_at), MIN(ordered_at)) AS span_days, TIMESTAMPDIFF(MONTH, MIN(ordered_at), MAX(ordered_at)) AS span_months, LAST_DAY(MAX(ordered_at)) AS month_end, DATE_ADD(MAX(ordered_at), INTERVAL 1 QUARTER) AS next_quarter, ADDDATE(MIN(ordered_at), 30) AS first_plus_30, UNIX_TIMESTAMP(MAX(ordered_at)) AS epoch, FROM_UNIXTIME(UNIX_TIMESTAMP(MIN(ordered_at))) AS back FROM orders
-- @@
SELECT DAYOFWEEK(ordered_at) AS dow, DAYNAME(ordered_at) AS day_name, QUARTER(ordered_at) AS q, WEEK(ordered_at, 3) AS iso_week, COUNT(*), SUM(total) FROM orders WHERE ordered_at >= CURDATE() - INTERVAL 5 YEAR GROUP BY dow, day_name, q, iso_week ORDER BY dow, q, iso_week LIMIT 30
-- @@
SELECT segment, COUNT(*) AS customers, SUM(TIMESTAMPDIFF(DAY, created_at, '2025-12-31') > 365) AS older_than_a_year, SEC_TO_TIME(AVG(TIME_TO_SEC(TIME(created_at)))) AS avg_signup_time, STR_TO_DATE('31.12.2025', '%d.%m.%Y') AS cutoff FROM customers GROUP BY segment
-- @@
SELECT FLOOR(total / 100) * 100 AS bucket, COUNT(*), MIN(total), MAX(total), ROUND(STDDEV_SAMP(total), 2) AS sd, ROUND(VAR_POP(total), 2) AS var FROM orders GROUP BY bucket ORDER BY bucket
-- @@
SELECT category, CEIL(AVG(price)) AS ceil_avg, TRUNCATE(MAX(price), -1) AS max_tens, POW(2, COUNT(*) MOD 5) AS pow, LN(SUM(price)) AS ln_sum, LOG2(COUNT(*)) AS log2_n, SQRT(SUM(price)) AS root, SIGN(MIN(price) - 10) AS cheap_sign, GREATEST(MAX(price), 100) AS at_least_100, LEAST(MIN(price), 10) AS at_most_10 FROM products GROUP BY category
-- @@
SELECT MD5(email) AS email_md5, SHA2(email, 256) AS email_sha256, TO_BASE64(name) AS name_b64, CRC32(email) AS crc, UNHEX(HEX(country)) AS roundtrip, OCTET_LENGTH(name) AS bytes FROM customers LIMIT 10
-- @@
SELECT UUID() AS extract_id, COUNT(*) AS rows_exported, DATABASE() AS db, CURRENT_USER() AS who, VERSION() AS server, CONNECTION_ID() AS conn FROM orders
-- @@
SELECT ip, INET_ATON(ip) AS as_number, INET_NTOA(INET_ATON(ip) & 0xFFFFFF00) AS subnet24, IS_IPV4(ip) AS v4, IS_IPV6(ip) AS v6, HEX(INET6_ATON(ip)) AS packed FROM (SELECT '1.2.3.4' AS ip UNION ALL SELECT '1.2.3.22') v
-- @@
SELECT p.category, ST_AsText(ST_Envelope(ST_GeomFromText(CONCAT('LINESTRING(', MIN(p.price), ' ', MIN(s.units), ', ', MAX(p.price), ' ', MAX(s.units), ')')))) AS price_units_box, ST_Distance(POINT(AVG(p.price), AVG(s.units)), POINT(0, 0)) AS distance_from_origin FROM products p JOIN (SELECT product_id, SUM(quantity) AS units FROM order_items GROUP BY product_id) s ON s.product_id = p.id GROUP BY p.category
-- @@
SELECT ExtractValue(CONCAT('<p><sku>', sku, '</sku><name>', name, '</name></p>'), '/p/name') AS name_from_xml, UpdateXML('<p><price/></p>', '/p/price', CONCAT('<price>', price, '</price>')) AS with_price FROM products ORDER BY id LIMIT 5
-- @@
SELECT IF(total > 100, 'big', 'small') AS size, CASE WHEN status IN ('cancelled', 'refunded') THEN 'lost' ELSE 'kept' END AS outcome, COALESCE(NULLIF(shipping_country, ''), 'unknown') AS country, IFNULL(NULL, 'n/a') AS placeholder, COUNT(*) FROM orders GROUP BY size, outcome, country ORDER BY 5 DESC LIMIT 20
-- @@
SELECT s.method, s.status, COUNT(*) AS n, ROUND(100 * COUNT(*) / SUM(COUNT(*)) OVER (PARTITION BY s.method), 1) AS pct_of_method FROM payments s GROUP BY s.method, s.status ORDER BY s.method, n DESC
-- @@
SELECT o.customer_id, COUNT(*) AS orders, BIT_OR(1 << (MONTH(o.ordered_at) - 1)) AS month_mask, BIT_COUNT(BIT_OR(1 << (MONTH(o.ordered_at) - 1))) AS active_months FROM orders o GROUP BY o.customer_id ORDER BY active_months DESC LIMIT 10
-- @@
WITH ranked AS (SELECT p.category, p.name, SUM(oi.quantity) AS units, ROW_NUMBER() OVER (PARTITION BY p.category ORDER BY SUM(oi.quantity) DESC) AS rn FROM order_items oi JOIN products p ON p.id = oi.product_id GROUP BY p.category, p.name) SELECT category, name, units FROM ranked WHERE rn <= 3 ORDER BY category, rn
-- @@
SELECT c.name, YEAR(o.ordered_at) AS y, SUM(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.ordered_at BETWEEN '2025-01-01' AND '2025-12-31 23:59:59' GROUP BY c.id, c.name, y HAVING spent > 1000 ORDER BY spent DESC LIMIT 10
-- @@
SELECT SOUNDEX(name) AS sounds, COUNT(*) AS n, MIN(name) AS example FROM customers GROUP BY sounds HAVING n > 1 ORDER BY n DESC LIMIT 10
-- @@
SELECT /*+ NO_INDEX_MERGE(orders) */ status, COUNT(*) FROM orders GROUP BY status
