#!/usr/bin/env bash
# PostgreSQL and MariaDB through MCP vs the raw Vert.x client at the same concurrency, in one run
# each (the --compare mode): loads the demo dataset into a `sluice_bench` database on both local
# servers (once; LOAD=1 reloads), starts the gateway with those two connections, runs the gateway
# and the direct baseline back to back per engine, prints the ratio table and writes JSON + HTML.
#
# Env: AGENTS (20), DURATION (20s), WARMUP (20s: the JIT needs it, see loadtest/README.md),
# MIX (ping=100), ENGINES ("pg maria"), ROUNDS (1: gateway and direct runs per engine, alternated
# G D, D G, ...; the ratio is then that of the means), POOL (4: the gateway's pool_size on both
# connections, the product's default; the direct client has a connection per agent), plus lib.sh's
# SLUICE_URL/REBUILD/RESULTS. Flags after the script go to LoadTestMain (e.g. --event-loops 4).
source "$(dirname "$0")/lib.sh"

AGENTS="${AGENTS:-20}"
DURATION="${DURATION:-20s}"
WARMUP="${WARMUP:-20s}"
MIX="${MIX:-ping=100}"
ENGINES="${ENGINES:-pg maria}"
ROUNDS="${ROUNDS:-1}"
POOL="${POOL:-4}"
PG_URL="postgresql://postgres@127.0.0.1:5432/sluice_bench"
MARIA_URL="mysql://root@127.0.0.1:3306/sluice_bench"

build_if_needed
CP="$(loadtest_classpath)"

if [[ "${LOAD:-0}" == 1 ]] || [[ -z "$(psql -h 127.0.0.1 -U postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'sluice_bench'")" ]]; then
  psql -h 127.0.0.1 -U postgres -qc "DROP DATABASE IF EXISTS sluice_bench" -c "CREATE DATABASE sluice_bench"
  java -cp "$CP" dev.sluice.demo.DemoDataMain postgres "$PG_URL" public
fi
if [[ "${LOAD:-0}" == 1 ]] || [[ -z "$(mysql -h127.0.0.1 -uroot -Nse "SHOW DATABASES LIKE 'sluice_bench'")" ]]; then
  mysql -h127.0.0.1 -uroot -e "DROP DATABASE IF EXISTS sluice_bench"
  java -cp "$CP" dev.sluice.demo.DemoDataMain mysql "mysql://root@127.0.0.1:3306/test" sluice_bench
fi

mkdir -p "$RESULTS"
CONFIG="$RESULTS/engines.yaml"
cat >"$CONFIG" <<YAML
connections:
  - {id: pg, driver: postgres, url: "$PG_URL", pool_size: $POOL}
  - {id: maria, driver: mysql, url: "$MARIA_URL", pool_size: $POOL}
YAML

start_gateway --config "$CONFIG"
trap stop_gateway EXIT

status=0
for engine in $ENGINES; do
  case "$engine" in
    pg) dialect=postgres; direct="$PG_URL" ;;
    maria) dialect=mysql; direct="$MARIA_URL" ;;
    *) echo "unknown engine $engine (pg, maria)" >&2; exit 2 ;;
  esac
  echo "== $engine: $AGENTS agents, mix $MIX, warm-up $WARMUP, measured $DURATION x $ROUNDS round(s) per side"
  java ${LOADTEST_JAVA_OPTS:--Xmx1g} -cp "$CP" dev.sluice.loadtest.LoadTestMain --url "$GW_URL" \
    --connection "$engine" --dialect "$dialect" --agents "$AGENTS" --duration "$DURATION" \
    --warmup "$WARMUP" --mix "$MIX" --direct "$direct" --compare --rounds "$ROUNDS" \
    ${GW_PID:+--gateway-pid "$GW_PID"} --out "$RESULTS/engines-$engine" "$@" || status=$?
done
exit "$status"
