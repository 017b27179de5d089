#!/usr/bin/env bash
# bench/helm.sh [RELEASES] [REVISIONS] — Helm releases at scale (issue 52): kscope's Helm view against k9s
# v0.50.16's and against Helm's SDK list action alone, on the devcluster. Writes RELEASES (default 1000) ×
# REVISIONS (default 5) release Secrets into namespace bench-helm-RELEASES by Helm's own SDK
# (bench/cmd/helmload; revisions stored already are kept, so a second run writes nothing), times that, then
# runs `screenbench helm`: one unmeasured launch of each TUI, then RUNS rounds (default 3), each in an order
# rotated by round: `helmload --list` (the SDK's list action, as `helm list -n NS`), `kscope -n NS helm`
# (first rows, all counted, every chart read; RSS settled and peak), `k9s -n NS -c helm` (the same, RSS);
# a launch not complete within LIMIT (default 120s) fails and counts as infinitely slow. Then one more kscope
# launch with --cpuprofile, whose top is written beside the report.
# Raw samples: bench/results/DATE-helm-RELEASESxREVISIONS.json; the report: the same name .md; the profile's
# top: -profile.txt. The namespace is deleted afterwards.
#   K9S=path (default: bench/install-k9s.sh builds it once; K9S= skips k9s)  KEEP=1 keeps the namespace
#   KSCOPE_DEVCLUSTER_CACHE=DIR: the devcluster of another cache folder (default .cache/devcluster)
#   MAX_LOAD=1.5 / BENCH_ANY_LOAD=1: as bench/loadgate.sh (the report states each run's load)
# Run it holding the e2e lock (flock /tmp/kscope-e2e.lock bench/helm.sh): it shares the devcluster.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
releases=${1:-1000}
revisions=${2:-5}
cache=${KSCOPE_DEVCLUSTER_CACHE:-$root/.cache/devcluster}
export KUBECONFIG=${KUBECONFIG:-$cache/state/kubeconfig}
ns=bench-helm-$releases
day=$(date -u +%F)
results=$root/bench/results
work=$root/.cache/bench
mkdir -p "$results" "$work"

kubectl get --raw /readyz >/dev/null || { echo "bench: the dev cluster is not up (make up)" >&2; exit 1; }
. "$root/bench/loadgate.sh"
load_gate
report=$(unused_name "$results/$day-helm-${releases}x$revisions")

# Private copies, so a rebuild by someone else cannot swap a binary mid-run.
make --no-print-directory build >&2
cp bin/kscope "$work/kscope-helm"
go build -o "$work/helmload" ./bench/cmd/helmload
go build -o "$work/screenbench-helm" ./bench/cmd/screenbench
k9s=${K9S-$(bench/install-k9s.sh)}

kubectl create namespace "$ns" --dry-run=client -o yaml | kubectl apply -f - >&2
echo "bench: writing $releases × $revisions releases into $ns" >&2
start=$(date +%s%N)
"$work/helmload" --namespace "$ns" --releases "$releases" --revisions "$revisions" >&2
load_s=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
echo "bench: the load took $load_s s" >&2
load_gate

profile=$work/kscope-helm.pprof
rm -f "$profile"
"$work/screenbench-helm" helm --namespace "$ns" --releases "$releases" --revisions "$revisions" \
	--kscope "$work/kscope-helm" --k9s "$k9s" --k9s-config "$cache/k9s" --helmload "$work/helmload" \
	--runs "${RUNS:-3}" --limit "${LIMIT:-120s}" --profile "$profile" --load-s "$load_s" \
	--out "$report.json" --report "$report.md" || status=$?
if [ -s "$profile" ]; then
	{
		echo "kscope -n $ns helm, one launch with --cpuprofile, quit 10 s after its view was complete or at the limit (go tool pprof -top)"
		go tool pprof -top -nodecount=40 "$work/kscope-helm" "$profile" 2>&1
	} >"$report-profile.txt"
fi
if [ "${KEEP:-0}" = 1 ]; then
	echo "bench: keeping namespace $ns (KEEP=1)" >&2
else
	kubectl delete namespace "$ns" --wait=false >&2 || true
fi
[ "${status:-0}" = 0 ] || exit "$status"
echo "bench: wrote $report.md" >&2
