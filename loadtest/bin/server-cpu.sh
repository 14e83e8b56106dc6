#!/usr/bin/env bash
# The database server's CPU per call next to the gateway's, for two builds alternated (A B A B ...):
# gateway-only runs of engines.sh's workload (20 agents, ping=100) against MariaDB or PostgreSQL,
# with the server process's /proc/PID/stat read before and after each run (warm-up included, so
# the gateway's figure carries its JIT; the server's does not). What engines.sh's ratio cannot
# show when the direct client's own speed swings from run to run: what a change saves the server.
#
#   bash loadtest/bin/server-cpu.sh OLD.jar NEW.jar [ROUNDS]       # ROUNDS: 2
#
# Env: ENGINE (maria or pg), AGENTS (20), DURATION (15s), WARMUP (20s), MIX (ping=100). Needs the
# sluice_bench databases engines.sh loads (run it once first).
source "$(dirname "$0")/lib.sh"
[[ $# -ge 2 ]] || { sed -n '2,11p' "$0" >&2; exit 2; }
A="$(realpath "$1")"; B="$(realpath "$2")"; ROUNDS="${3:-2}"
ENGINE="${ENGINE:-maria}"
case "$ENGINE" in
  maria) server=mariadbd; dialect=mysql; url="mysql://root@127.0.0.1:3306/sluice_bench" ;;
  pg) server=postgres; dialect=postgres; url="postgresql://postgres@127.0.0.1:5432/sluice_bench" ;;
  *) echo "ENGINE is maria or pg" >&2; exit 2 ;;
esac
build_if_needed
CP="$(loadtest_classpath)"
mkdir -p "$RESULTS"
CONFIG="$RESULTS/server-cpu.yaml"
echo "connections: [{id: $ENGINE, driver: $([[ $ENGINE == pg ]] && echo postgres || echo mysql), url: \"$url\", pool_size: 8}]" >"$CONFIG"

# utime + stime of every process named $server (PostgreSQL's backends are processes of their own;
# a backend that exited during the run is missed, but the gateway's pool keeps its connections)
server_ticks() {
  local total=0 pid
  for pid in $(pgrep -x "$server"); do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
hz=$(getconf CLK_TCK)
for round in $(seq 1 "$ROUNDS"); do
  for side in A B; do
    jar=$A; [[ $side == B ]] && jar=$B
    JAR="$jar" start_gateway --config "$CONFIG" 2>/dev/null
    s0=$(server_ticks); g0=$(awk '{print $14 + $15}' "/proc/$GW_PID/stat")
    out=$(java ${LOADTEST_JAVA_OPTS:--Xmx1g} -cp "$CP" dev.sluice.loadtest.LoadTestMain --url "$GW_URL" \
      --connection "$ENGINE" --dialect "$dialect" --agents "${AGENTS:-20}" --duration "${DURATION:-15s}" \
      --warmup "${WARMUP:-20s}" --mix "${MIX:-ping=100}" --out "$RESULTS/server-cpu" 2>&1)
    s1=$(server_ticks); g1=$(awk '{print $14 + $15}' "/proc/$GW_PID/stat")
    stop_gateway
    # every call the gateway answered: both warm-up fleets and the measured run
    calls=$(echo "$out" | grep -oE "(warm-up [0-9]/[0-9]: [0-9]+ calls|agents: [0-9]+ calls)" | grep -oE "[0-9]+ calls" \
      | awk '{s += $1} END {print s}')
    rate=$(echo "$out" | grep -oE "= [0-9.]+ calls/s" | head -1 | grep -oE "[0-9.]+")
    awk -v side="$side" -v round="$round" -v calls="$calls" -v rate="$rate" -v s=$((s1 - s0)) -v g=$((g1 - g0)) \
      -v hz="$hz" -v name="$server" 'BEGIN {printf "%s %s: %d calls, measured %s calls/s; %s %.0f µs/call, gateway %.0f µs/call\n",
        side, round, calls, rate, name, s * 1e6 / hz / calls, g * 1e6 / hz / calls}'
  done
done
