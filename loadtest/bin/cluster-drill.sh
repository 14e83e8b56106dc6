#!/usr/bin/env bash
# The node-loss drill: a three-node cluster (cluster.sh) behind a simulated non-sticky load
# balancer, 300 agents for a minute, node 0 killed with SIGKILL 25 s in. The report's timeline
# shows the dip and the recovery; the run fails on any unexpected error. Calls cut off on the dead
# node (node_lost) and sessions that died with it (session_lost, re-initialized on a live node)
# are the expected cost of the loss and are counted separately.
#
# Env: AGENTS (300), DURATION (60s), KILL_AFTER (25s), MIX, STATE_POSTGRES_URL (shared state),
#      plus cluster.sh's NODES/BASE_*_PORT.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_if_needed
DEFAULT_MIX="tiny=70,medium=10,explain=5,connections=15"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
mkdir -p "$RESULTS"
out="$RESULTS/cluster-drill-$(date -u +%Y%m%d-%H%M%S).log"
setsid bash "$ROOT/loadtest/bin/cluster.sh" >"$out" 2>&1 &
cluster=$!
trap 'kill -TERM -- -"$cluster" 2>/dev/null; wait "$cluster" 2>/dev/null' EXIT
for _ in $(seq 1 240); do
  grep -q " is up" "$out" && break
  kill -0 "$cluster" 2>/dev/null || { cat "$out" >&2; exit 1; }
  sleep 1
done
grep -q " is up" "$out" || { echo "the cluster did not come up; see $out" >&2; exit 1; }
urls="$(grep -o 'url http://[^ ]*' "$out" | cut -d' ' -f2 | paste -sd, -)"
victim="$(grep -m1 '^node 0 pid' "$out" | awk '{print $4}')"
echo "cluster: $urls; node 0 (pid $victim) will be killed after ${KILL_AFTER:-25s}" >&2
GW_URL="$urls" GW_PID=""
run_loadtest --agents "${AGENTS:-300}" --duration "${DURATION:-60s}" --ramp-up "${RAMP_UP:-5s}" --max-calls 10000000 \
  --warmup "${WARMUP:-3s}" --connection demo --dialect sqlite --kill-pid "$victim" --kill-after "${KILL_AFTER:-25s}" \
  --label "node-loss drill" "$@"
