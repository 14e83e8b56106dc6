#!/usr/bin/env bash
# Two builds of the gateway, alternated: A B A B ... each through engines.sh (MCP vs the raw
# client, one run per engine), so a change is judged against the machine's drift, not one run.
# Prints one line per run and the mean of each build at the end.
#
#   bash loadtest/bin/ab.sh OLD.jar NEW.jar [ROUNDS]        # e.g. two jars built from two commits
#
# Env: as engines.sh (ENGINES, AGENTS, DURATION, WARMUP; default WARMUP 30s here), RESULTS.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
[[ $# -ge 2 ]] || { sed -n '2,8p' "$0" >&2; exit 2; }
A="$(realpath "$1")"; B="$(realpath "$2")"; ROUNDS="${3:-2}"
export WARMUP="${WARMUP:-30s}"
OUT="$(mktemp -d)"
for round in $(seq 1 "$ROUNDS"); do
  for side in A B; do
    jar=$A; [[ $side == B ]] && jar=$B
    SLUICE_JAR="$jar" ROUNDS=1 bash "$ROOT/loadtest/bin/engines.sh" >"$OUT/$side-$round.log" 2>&1 || {
      echo "ab: run $side round $round failed; log $OUT/$side-$round.log" >&2; exit 1; }
    # "== pg: ..." then "[gateway] ... = N calls/s" and "gateway: cpu ... (U µs/call" per engine
    awk -v side="$side" -v round="$round" '
      /^== /{engine=$2; sub(":", "", engine)}
      /^\[gateway\]/{for (i = 1; i <= NF; i++) if ($i == "calls/s;") gw = $(i - 1)}
      /gateway: cpu/{for (i = 1; i <= NF; i++) if ($i == "µs/call,") {us = $(i - 1); sub(/^\(/, "", us)}}
      /^\[direct\]/{for (i = 1; i <= NF; i++) if ($i == "calls/s;") printf "%s %s %s %s %s %s\n", side, round, engine, gw, us, $(i - 1)}
    ' "$OUT/$side-$round.log" | tee -a "$OUT/table"
  done
done
echo "side round engine gw_calls_s us_per_call direct_calls_s -> means:"
awk '{k = $1 " " $3; n[k]++; gw[k] += $4; us[k] += $5; d[k] += $6}
  END {for (k in n) printf "%s: gateway %.0f calls/s, %.0f µs/call, direct %.0f calls/s, ratio %.3f (%d runs)\n",
    k, gw[k] / n[k], us[k] / n[k], d[k] / n[k], gw[k] / d[k], n[k]}' "$OUT/table" | sort
echo "logs: $OUT"
