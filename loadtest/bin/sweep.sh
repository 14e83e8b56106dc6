#!/usr/bin/env bash
# Latency vs agents: starts a gateway on the embedded demo, runs 1,10,100,1000 agents, writes the
# report to loadtest/results/, stops the gateway. Extra flags go to the load generator, e.g.
#   loadtest/bin/sweep.sh --duration 20s --mix tiny=80,connections=20
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_if_needed
# Latency vs agents of ordinary queries: runaways would hold pool slots for the whole deadline and
# turn the higher levels into a measurement of the deadline instead. MIX= overrides.
DEFAULT_MIX="tiny=70,medium=10,large=2,explain=5,connections=13"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
start_gateway
trap stop_gateway EXIT
run_loadtest --sweep "${SWEEP:-1,10,100,1000}" --duration "${DURATION:-15s}" --ramp-up "${RAMP_UP:-2s}" \
  --max-calls "${MAX_CALLS:-500000}" --warmup "${WARMUP:-3s}" --connection "${CONNECTION:-demo}" --dialect "${DIALECT:-sqlite}" "$@"
