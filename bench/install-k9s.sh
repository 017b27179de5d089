#!/usr/bin/env bash
# Installs the peer for side-by-side benchmarks, k9s v0.50.16, into the devcluster cache (once), with a config
# that skips its update check (which stalls start-up on a machine without internet access).
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$PWD/.cache/devcluster/bin"
version=v0.50.16
# `go install` leaves k9s's own version string at "dev": read the module version from the build info.
if [ ! -x "$bin/k9s" ] || ! go version -m "$bin/k9s" 2>/dev/null | grep -q "github.com/derailed/k9s[[:space:]]*$version"; then
  echo "bench: building k9s $version (about 6 minutes on 2 cores)…" >&2
  GOBIN="$bin" go install "github.com/derailed/k9s@$version"
fi
config="$PWD/.cache/devcluster/k9s"
mkdir -p "$config"
cat >"$config/config.yaml" <<'YAML'
k9s:
  skipLatestRevCheck: true
  refreshRate: 2
  ui:
    logoless: true
    splashless: true
YAML
echo "$bin/k9s"
