#!/usr/bin/env bash
# bench/far.sh [N] — kscope, k9s and `kubectl get pods` far from the server (issue 51), against the server's floor
# (one gzip GET of the pods as a Table, by curl), all through kscope's far-link proxy (bench/cmd/farlink) in
# front of the devcluster's API server, at N pods (default 10000). Seeds namespace bench-far-N with N pods (a
# namespace already holding N is kept), starts the proxy, and runs `screenbench far`: a launch of each tool on
# the bare link first (discovery cached on disk from then on, not measured), then RUNS rounds (default 3) at
# each round trip of RTTS (default 0,100,300 ms; half of it each way) with RATE each way (default 50mbit), each
# tool once per round in an order rotated by round. Per launch: complete time, bytes each way, connections
# opened, and requests (the audit log's, of the context's user). The tools run as the devcluster's context
# tester, whose requests the audit log records: run it when no other kscope of that user is running.
# Raw samples: bench/results/DATE-far-N.json; the report: bench/results/DATE-far-N.md.
#   K9S=path (default: bench/install-k9s.sh builds it once; K9S= skips k9s)  KEEP=1 keeps the namespace
#   KSCOPE_DEVCLUSTER_CACHE=DIR: the devcluster of another cache folder (default .cache/devcluster)
#   MAX_LOAD=1.5 / BENCH_ANY_LOAD=1: as bench/loadgate.sh (the report states each run's load)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
n=${1:-10000}
cache=${KSCOPE_DEVCLUSTER_CACHE:-$root/.cache/devcluster}
export KUBECONFIG=${KUBECONFIG:-$cache/state/kubeconfig}
ns=bench-far-$n
day=$(date -u +%F)
results=$root/bench/results
work=$root/.cache/bench
mkdir -p "$results" "$work"

kubectl get --raw /readyz >/dev/null || { echo "bench: the dev cluster is not up (make up)" >&2; exit 1; }
. "$root/bench/loadgate.sh"
load_gate
report=$(unused_name "$results/$day-far-$n")

# Private copies, so a rebuild by someone else cannot swap a binary mid-run.
make --no-print-directory build >&2
cp bin/kscope "$work/kscope-far"
go build -o "$work/farlink" ./bench/cmd/farlink
go build -o "$work/screenbench-far" ./bench/cmd/screenbench
(cd devcluster && go build -o "$work/devcluster" .)
k9s=${K9S-$(bench/install-k9s.sh)}

have=$(kubectl get --raw "/api/v1/namespaces/$ns/pods?limit=1" 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))' 2>/dev/null || echo 0)
if [ "$have" -lt "$n" ]; then
	echo "bench: seeding $n pods into $ns (has $have)" >&2
	"$work/devcluster" --cache "$cache" seed --pods "$n" --namespace "$ns" >&2
	load_gate
fi

server=$(kubectl config view --minify --context tester -o jsonpath='{.clusters[0].cluster.server}')
target=${server#https://}
log=$work/farlink.log
"$work/farlink" --target "$target" --listen 127.0.0.1:0 --control 127.0.0.1:0 >"$log" 2>&1 &
proxy_pid=$!
trap 'kill "$proxy_pid" 2>/dev/null || true' EXIT
for _ in $(seq 50); do grep -q 'listening on' "$log" && break; sleep 0.1; done
proxy=$(sed -n 's/^farlink: listening on \([^ ]*\) .*/\1/p' "$log")
control=$(sed -n 's/^farlink: control on \(.*\)$/\1/p' "$log")
[ -n "$proxy" ] && [ -n "$control" ] || { echo "bench: farlink did not start: $(cat "$log")" >&2; exit 1; }
echo "bench: farlink $proxy → $target (control $control)" >&2

"$work/screenbench-far" far --namespace "$ns" --pods "$n" --kscope "$work/kscope-far" \
	--k9s "$k9s" --k9s-config "$cache/k9s" --proxy "$proxy" --control "$control" \
	--audit "$cache/state/logs/audit.log" --rtts "${RTTS:-0,100,300}" --rate "${RATE:-50mbit}" --runs "${RUNS:-3}" \
	--out "$report.json" --report "$report.md" || status=$?
if [ "${KEEP:-0}" = 1 ]; then
	echo "bench: keeping namespace $ns (KEEP=1)" >&2
else
	kubectl delete namespace "$ns" --wait=false >&2 || true
fi
[ "${status:-0}" = 0 ] || exit "$status"
echo "bench: wrote $report.md" >&2
