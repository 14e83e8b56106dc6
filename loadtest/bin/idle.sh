#!/usr/bin/env bash
# 10,000 idle sessions, each holding its GET event stream: how many stay open, errors, gateway heap.
# Raises the open-file limit (client and gateway each need one descriptor per stream) and gives the
# gateway a fixed heap so the figures are comparable. Extra flags go to the load generator.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
build_if_needed
SESSIONS="${SESSIONS:-10000}"
need=$((SESSIONS * 2 + 4096))
if [[ "$(ulimit -n)" != unlimited && "$(ulimit -n)" -lt "$need" ]]; then
  ulimit -n "$need" 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true
fi
echo "open-file limit: $(ulimit -n)" >&2
GATEWAY_JAVA_OPTS="${GATEWAY_JAVA_OPTS:--Xms512m -Xmx2g}"
start_gateway
trap stop_gateway EXIT
run_loadtest --idle --agents "$SESSIONS" --duration "${DURATION:-30s}" --ramp-up "${RAMP_UP:-20s}" "$@"
