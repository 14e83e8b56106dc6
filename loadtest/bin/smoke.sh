#!/usr/bin/env bash
# 20 agents for 10 s (mix below); exits non-zero on any UNEXPECTED error (never on latency).
# Intended outcomes (cancel -> stream ends without result) do not fail it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_if_needed
# cancel exercises an intended outcome in 300 ms; runaway is left out because each one lasts the
# connection's whole deadline (30 s by default), longer than the smoke itself. MIX= overrides.
DEFAULT_MIX="tiny=60,medium=10,large=2,explain=8,connections=15,cancel=5"
start_gateway
trap stop_gateway EXIT
run_loadtest --agents "${AGENTS:-20}" --duration "${DURATION:-10s}" --ramp-up 1s --max-calls 100000 --warmup "${WARMUP:-2s}" \
  --connection "${CONNECTION:-demo}" --dialect "${DIALECT:-sqlite}" "$@"
