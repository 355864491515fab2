#!/usr/bin/env bash
# Installs the real published ACP agents (claude-agent-acp, gemini-cli, codex-acp, opencode, qwen-code) used by the
# local-agent tests and the local Fountain-compatible test server into test/runtime/acp-agents/node_modules.
# codex-acp and opencode are native binaries from per-platform optional packages: the checks below name this
# platform's (opencode's own `bin/opencode.exe` is a stub without its postinstall; the tests run the binary itself).
#
# Idempotent: `npm ci` runs only when the stamp in node_modules does not match the hash of
# package.json + package-lock.json. Quiet on success; prints npm's log on failure.
# Everything comes from the npm registry; install scripts are off (see test/runtime/acp-agents/.npmrc).
# Safe to call from inside an outer `npm test`: the outer npm's npm_* variables are dropped first.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
dir="$(cd "$here/../runtime/acp-agents" && pwd)"
stamp="$dir/node_modules/.fountain-setup-stamp"

hash="$(cat "$dir/package.json" "$dir/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
  exit 0
fi

# An outer `npm test` exports npm_config_* (omit, ignore-scripts, prefix, global...) and npm_lifecycle_*;
# they would change what the inner npm does. Start from a clean npm environment.
while IFS= read -r name; do
  unset "$name"
done < <(compgen -e | grep -i '^npm_' || true)

log="$(mktemp "${TMPDIR:-/tmp}/setup-acp-agents.XXXXXX.log")"
trap 'rm -f "$log"' EXIT

# Serialise concurrent runs (several test tiers may call this at once).
exec 9>"${TMPDIR:-/tmp}/fountain-setup-acp-agents.lock"
flock -w 600 9

# Re-check under the lock: another run may have finished meanwhile.
if [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
  exit 0
fi

if ! (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=warn) >"$log" 2>&1; then
  echo "setup-acp-agents: npm ci failed in $dir" >&2
  cat "$log" >&2
  exit 1
fi

platform="$(node -p 'process.platform + "-" + process.arch')"
for entry in \
  "node_modules/@zed-industries/claude-agent-acp/dist/index.js" \
  "node_modules/@anthropic-ai/claude-agent-sdk/cli.js" \
  "node_modules/@google/gemini-cli/bundle/gemini.js" \
  "node_modules/@zed-industries/codex-acp-$platform/bin/codex-acp" \
  "node_modules/opencode-${platform/win32/windows}/bin/opencode" \
  "node_modules/@qwen-code/qwen-code/cli.js"; do
  if [[ ! -f "$dir/$entry" ]]; then
    echo "setup-acp-agents: $entry missing after npm ci" >&2
    cat "$log" >&2
    exit 1
  fi
done

printf '%s' "$hash" >"$stamp"
