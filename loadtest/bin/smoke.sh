#!/usr/bin/env bash
# 20 agents for 10 s with the default mix; exits non-zero on any UNEXPECTED error (never on latency).
# Intended outcomes (runaway -> timeout, cancel -> no result) do not fail it.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_if_needed
start_gateway
trap stop_gateway EXIT
run_loadtest --agents "${AGENTS:-20}" --duration "${DURATION:-10s}" --ramp-up 1s --max-calls 100000 --warmup "${WARMUP:-2s}" \
  --connection "${CONNECTION:-demo}" --dialect "${DIALECT:-sqlite}" "$@"
