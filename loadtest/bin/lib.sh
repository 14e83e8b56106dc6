#!/usr/bin/env bash
# Shared helpers for the load-test scripts: build, classpath, start/stop a gateway on loopback.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
# SLUICE_JAR runs another build of the gateway (ab.sh compares two)
JAR="${SLUICE_JAR:-$ROOT/gateway/target/sluice.jar}"
RESULTS="${RESULTS:-$ROOT/loadtest/results}"
GW_PID=""
GW_URL=""
# Servers under test (the gateway, and peers.sh's peers) start in a session of their own, as a
# service does under systemd or in a container. Linux's autogroup scheduling shares the CPU between
# sessions first: a server started in the load generator's session competed with wrk thread by
# thread, and a server that does its work on one event loop was held up behind wrk's wake-ups
# (docs/performance.md, 2026-11-30, "the tail was the harness's session"). SERVER_LAUNCH= (empty)
# starts them in this session as before.
SERVER_LAUNCH="${SERVER_LAUNCH-setsid}"

build_if_needed() {
  if [[ ! -f "$JAR" || ! -d "$ROOT/loadtest/target/classes/dev/sluice/loadtest" || "${REBUILD:-0}" == 1 ]]; then
    echo "building (offline)..." >&2
    (cd "$ROOT" && mvn -q -B -pl verticles,gateway,loadtest -am package -DskipTests)
  fi
}

loadtest_classpath() {
  local cpfile="$ROOT/loadtest/target/runtime-classpath.txt"
  if [[ ! -s "$cpfile" || "$ROOT/loadtest/pom.xml" -nt "$cpfile" ]]; then
    # In one reactor build with `package`, so the sibling modules resolve to their fresh jars
    # (nothing is installed to ~/.m2); loadtest builds last, so its classpath is what stays.
    (cd "$ROOT" && mvn -q -B -pl verticles,gateway,loadtest -am package -DskipTests dependency:build-classpath \
      -Dmdep.outputFile="$cpfile" -Dmdep.includeScope=runtime >&2)
  fi
  echo "$ROOT/loadtest/target/classes:$ROOT/verticles/target/classes:$(cat "$cpfile")"
}

# start_gateway [extra gateway args...]: starts sluice.jar on a free loopback port, sets GW_URL, GW_PID.
# SLUICE_URL=http://127.0.0.1:PORT/mcp (with SLUICE_PID) uses an already running gateway instead.
start_gateway() {
  if [[ -n "${SLUICE_URL:-}" ]]; then
    GW_URL="$SLUICE_URL"; GW_PID="${SLUICE_PID:-}"; return
  fi
  local log="$RESULTS/gateway-$(date -u +%Y%m%d-%H%M%S).log"
  mkdir -p "$RESULTS"
  if [[ "${GATEWAY:-jar}" == dev ]]; then
    # no database: only connection_list and the load_* stand-in tools (see DevGateway)
    (cd "$ROOT" && mvn -q -B -pl verticles,gateway,loadtest package -DskipTests dependency:build-classpath \
      -Dmdep.outputFile="$ROOT/loadtest/target/test-classpath.txt" -Dmdep.includeScope=test >&2)
    ${SERVER_LAUNCH:-} java ${GATEWAY_JAVA_OPTS:-} -cp "$ROOT/loadtest/target/test-classes:$(cat "$ROOT/loadtest/target/test-classpath.txt")" \
      dev.sluice.loadtest.DevGateway >"$log" 2>&1 &
  else
    ${SERVER_LAUNCH:-} java ${GATEWAY_JAVA_OPTS:-} -jar "$JAR" --port 0 "$@" >"$log" 2>&1 &
  fi
  GW_PID=$!
  for _ in $(seq 1 120); do
    GW_URL="$(grep -o 'http://127\.0\.0\.1:[0-9]*/mcp' "$log" | head -1 || true)"
    [[ -n "$GW_URL" ]] && break
    if ! kill -0 "$GW_PID" 2>/dev/null; then
      echo "gateway exited before serving; log: $log" >&2; tail -20 "$log" >&2
      GW_PID=""; return 1
    fi
    sleep 0.5
  done
  if [[ -z "$GW_URL" ]]; then
    echo "gateway did not print its URL within 60 s; log: $log" >&2; stop_gateway; return 1
  fi
  echo "gateway pid $GW_PID at $GW_URL (log $log)" >&2
}

stop_gateway() {
  if [[ -n "$GW_PID" ]] && kill -0 "$GW_PID" 2>/dev/null && [[ -z "${SLUICE_URL:-}" ]]; then
    kill "$GW_PID" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$GW_PID" 2>/dev/null || true
  fi
}

# With GATEWAY=dev there is no demo database, so the default mix uses connection_list and stand-ins.
dev_mix() {
  if [[ "${GATEWAY:-jar}" == dev ]]; then
    echo "--mix ${MIX:-connections=40,tool:load_progress=60}"
  elif [[ -n "${MIX:-${DEFAULT_MIX:-}}" ]]; then
    echo "--mix ${MIX:-$DEFAULT_MIX}"
  fi
}

# run_loadtest [flags...]: runs LoadTestMain against GW_URL with the gateway PID for CPU accounting.
run_loadtest() {
  local pidflag=()
  [[ -n "$GW_PID" ]] && pidflag=(--gateway-pid "$GW_PID")
  java ${LOADTEST_JAVA_OPTS:--Xmx1g} -cp "$(loadtest_classpath)" dev.sluice.loadtest.LoadTestMain \
    --url "$GW_URL" "${pidflag[@]}" --out "$RESULTS" $(dev_mix) "$@"
}
