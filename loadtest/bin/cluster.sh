#!/usr/bin/env bash
# Starts a Sluice cluster of three nodes on 127.0.0.1 (Hazelcast TCP-IP members, no multicast) on
# the embedded demo, prints one line per node ("node I pid P url U"), and stops every node when it
# is interrupted or terminated.
#
# Env: NODES (3), BASE_CLUSTER_PORT (5801), BASE_HTTP_PORT (7881), RESULTS (node logs and state),
#      STATE_POSTGRES_URL (set: the nodes share a PostgreSQL state store), STATE_TABLE (sluice_state),
#      LEASE_MS (15000), GATEWAY_JAVA_OPTS (JVM options of every node), REBUILD=1 (rebuild the jar first).
source "$(dirname "$0")/lib.sh"
NODES="${NODES:-3}"
BASE_CLUSTER_PORT="${BASE_CLUSTER_PORT:-5801}"
BASE_HTTP_PORT="${BASE_HTTP_PORT:-7881}"
if [[ ! -f "$JAR" || "${REBUILD:-0}" == 1 ]]; then
  echo "building the gateway jar (offline)..." >&2
  (cd "$ROOT" && mvn -q -B -pl verticles,gateway -am package -DskipTests)
fi
mkdir -p "$RESULTS"
members=""
for ((i = 0; i < NODES; i++)); do
  members+="${members:+,}127.0.0.1:$((BASE_CLUSTER_PORT + i))"
done
name="sluice-$(date +%s)-$$"
pids=()
stop_nodes() {
  trap - EXIT INT TERM
  ((${#pids[@]})) && kill "${pids[@]}" 2>/dev/null
  wait 2>/dev/null
  exit 0
}
trap stop_nodes EXIT INT TERM
for ((i = 0; i < NODES; i++)); do
  state="$RESULTS/cluster-node$i"
  mkdir -p "$state"
  {
    printf 'state:\n  dir: %s\n' "$state"
    if [[ -n "${STATE_POSTGRES_URL:-}" ]]; then
      printf '  store: postgres\n  postgres_url: %s\n  postgres_table: %s\n  lease_ms: %s\n' \
        "$STATE_POSTGRES_URL" "${STATE_TABLE:-sluice_state}" "${LEASE_MS:-15000}"
      # the audit records go to the same database, in a table named after the store's
      printf 'audit:\n  postgres_table: %s_audit\n' "${STATE_TABLE:-sluice_state}"
    fi
  } >"$state/sluice.yaml"
  java ${GATEWAY_JAVA_OPTS:-} -jar "$JAR" --config "$state/sluice.yaml" --port "$((BASE_HTTP_PORT + i))" --cluster --cluster-name "$name" \
    --cluster-port "$((BASE_CLUSTER_PORT + i))" --cluster-members "$members" >"$state/node.log" 2>&1 &
  pids+=($!)
done
for ((i = 0; i < NODES; i++)); do
  for _ in $(seq 1 180); do
    grep -q "serving MCP at" "$RESULTS/cluster-node$i/node.log" 2>/dev/null && break
    kill -0 "${pids[$i]}" 2>/dev/null || { echo "node $i exited; see $RESULTS/cluster-node$i/node.log" >&2; exit 1; }
    sleep 1
  done
  url="$(grep -o 'http://[^ ]*/mcp' "$RESULTS/cluster-node$i/node.log" | head -1)"
  [[ -n "$url" ]] || { echo "node $i did not start in 180 s; see $RESULTS/cluster-node$i/node.log" >&2; exit 1; }
  echo "node $i pid ${pids[$i]} url $url"
done
echo "cluster $name is up; Ctrl-C stops it"
# wait returns early when a signal arrives, so the trap runs at once
while true; do wait; sleep 1; done
