#!/usr/bin/env bash
# Catalog scan of a large PostgreSQL schema with bounded memory: creates TABLES tables (default
# 2000; each 8 columns, 3 of them text, a foreign key to its predecessor, a comment and ROWS rows)
# in schema sluice_scan_bench of database `test` (once; LOAD=1 recreates), then runs
# `sluice.jar scan` under a fixed heap (HEAP, default 128m) and prints wall time, tables,
# problems, heap peak, max RSS and the snapshot size.
#
# Env: TABLES (2000), ROWS (20), HEAP (128m), CONCURRENCY (2), plus lib.sh's REBUILD/RESULTS.
source "$(dirname "$0")/lib.sh"

TABLES="${TABLES:-2000}"
ROWS="${ROWS:-20}"
HEAP="${HEAP:-128m}"
CONCURRENCY="${CONCURRENCY:-2}"
SCHEMA=sluice_scan_bench
export PGOPTIONS="-c client_min_messages=warning"
PSQL=(psql -h 127.0.0.1 -U postgres -d test -v ON_ERROR_STOP=1 -q)

build_if_needed

have="$("${PSQL[@]}" -Atc "SELECT count(*) FROM pg_tables WHERE schemaname = '$SCHEMA'")"
if [[ "${LOAD:-0}" == 1 || "$have" != "$TABLES" ]]; then
  echo "creating $TABLES tables in test.$SCHEMA ..." >&2
  # dropped 100 tables per transaction: one DROP SCHEMA ... CASCADE of thousands of tables runs
  # out of lock slots (max_locks_per_transaction)
  while [[ "$("${PSQL[@]}" -Atc "SELECT count(*) FROM pg_tables WHERE schemaname = '$SCHEMA'")" != 0 ]]; do
    "${PSQL[@]}" -c "DO \$\$ DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables
      WHERE schemaname = '$SCHEMA' LIMIT 100 LOOP EXECUTE format('DROP TABLE $SCHEMA.%I CASCADE', r.tablename);
      END LOOP; END \$\$;"
  done
  "${PSQL[@]}" -c "DROP SCHEMA IF EXISTS $SCHEMA CASCADE" -c "CREATE SCHEMA $SCHEMA"
  # batches of 100 tables per transaction keep the lock table small
  for ((from = 1; from <= TABLES; from += 100)); do
    to=$((from + 99 > TABLES ? TABLES : from + 99))
    "${PSQL[@]}" -c "DO \$\$ BEGIN FOR i IN $from..$to LOOP
      EXECUTE format('CREATE TABLE $SCHEMA.t%s (id int PRIMARY KEY, parent_id int REFERENCES $SCHEMA.t%s (id),
        name text, status varchar(20), region varchar(40), amount numeric(10,2), created_at timestamp, active boolean)',
        i, greatest(i - 1, 1));
      EXECUTE format('COMMENT ON TABLE $SCHEMA.t%s IS %L', i, 'Bench table number ' || i);
      EXECUTE format('INSERT INTO $SCHEMA.t%s SELECT g, NULL, ''name '' || g, (ARRAY[''new'',''open'',''done''])[1 + g %% 3],
        ''region '' || (g %% 7), g * 1.5, now() - g * interval ''1 hour'', g %% 2 = 0 FROM generate_series(1, $ROWS) g', i);
    END LOOP; END \$\$;"
  done
  "${PSQL[@]}" -c "ANALYZE"
fi

mkdir -p "$RESULTS"
STATE="$(mktemp -d)"
CONFIG="$RESULTS/catalog-scan.yaml"
cat >"$CONFIG" <<YAML
state:
  dir: $STATE
catalog:
  concurrency: $CONCURRENCY
connections:
  - {id: bench, driver: postgres, url: "postgresql://postgres@127.0.0.1:5432/test", schemas: [$SCHEMA], pool_size: 4}
YAML

echo "== sluice scan bench: $TABLES tables, heap $HEAP, concurrency $CONCURRENCY"
/usr/bin/time -f "max RSS %M KiB, wall %e s, cpu %U+%S s" \
  java -Xmx"$HEAP" -Xms"$HEAP" -jar "$JAR" scan bench --config "$CONFIG" 2>&1 | grep -v '"level":"INFO"' || true
echo "snapshot: $(du -h "$STATE/catalog/bench.json" | cut -f1)"
rm -rf "$STATE"
