#!/usr/bin/env bash
# bench/clusters.sh [N] — kscope on one table over three clusters against kscope on each alone (issue 33: the
# table over 3 clusters × N pods completes within 1.3× of the slowest single cluster and holds at most 3.2×
# the single-cluster RSS). N defaults to 10000. Seeds namespace bench-clusters-N with N pods in each of the
# contexts admin, second and third (the devcluster's first, second and third clusters; a namespace already
# holding N is kept), starts the third cluster if it does not run (devcluster up --clusters 3), then runs
# `screenbench clusters`: RUNS rounds (default 3), each the server's floor (a Table GET per cluster, and to
# all at once), then `kscope --context C -n NS pods` for each cluster and `kscope -n NS pods
# @admin,@second,@third`, and each alone all started at once (the servers under the table's load), in an order
# rotated by round. Raw samples: bench/results/DATE-clusters-N.json; the
# report: bench/results/DATE-clusters-N.md (a later run the same day writes DATE-clusters-N-2, -3 …), next to
# the day's report of bench/screen.sh.
#   KEEP=1 keeps the namespaces (they are deleted, without waiting, otherwise)
#   KSCOPE_DEVCLUSTER_CACHE=DIR: the devcluster of another cache folder (default .cache/devcluster)
#   MAX_LOAD=1.5: the bench refuses to start while the 1-minute load average is above it (figures taken on a
#   busy machine mislead); BENCH_ANY_LOAD=1 runs anyway and the report marks every session above it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
n=${1:-10000}
cache=${KSCOPE_DEVCLUSTER_CACHE:-$root/.cache/devcluster}
export KUBECONFIG=${KUBECONFIG:-$cache/state/kubeconfig}
contexts=(admin second third)
ns=bench-clusters-$n
day=$(date -u +%F)
results=$root/bench/results
work=$root/.cache/bench
mkdir -p "$results" "$work"

kubectl --context admin get --raw /readyz >/dev/null || { echo "bench: the dev cluster is not up (make up)" >&2; exit 1; }
. "$root/bench/loadgate.sh"
load_gate
report=$(unused_name "$results/$day-clusters-$n") # (a second run the same day: DATE-clusters-N-2 …)

# Private copies, so a rebuild by someone else cannot swap a binary mid-run; the devcluster CLI of this tree
# (it knows --clusters and seed --context).
make --no-print-directory build >&2
cp bin/kscope "$work/kscope"
go build -o "$work/screenbench" ./bench/cmd/screenbench
(cd devcluster && go build -o "$work/devcluster" .)
devcluster=("$work/devcluster" --cache "$cache")

if ! kubectl --context third get --raw /readyz >/dev/null 2>&1; then
	echo "bench: starting the third cluster (devcluster up --clusters 3)" >&2
	"${devcluster[@]}" up --clusters 3 >/dev/null
fi

pod_count() { # pods in namespace $2 of context $1, from one page's remainingItemCount
	kubectl --context "$1" get --raw "/api/v1/namespaces/$2/pods?limit=1" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))' 2>/dev/null || echo 0
}

for c in "${contexts[@]}"; do
	have=$(pod_count "$c" "$ns")
	if [ "$have" -lt "$n" ]; then
		echo "bench: seeding $n pods into $ns of $c (has $have)" >&2
		"${devcluster[@]}" seed --context "$c" --pods "$n" --namespace "$ns" >&2
	fi
done

"$work/screenbench" clusters --namespace "$ns" --pods "$n" --contexts "$(IFS=,; echo "${contexts[*]}")" \
	--kscope "$work/kscope" --runs "${RUNS:-3}" --max-load "$max_load" \
	--out "$report.json" --report "$report.md" || status=$?
if [ "${KEEP:-0}" = 1 ]; then
	echo "bench: keeping namespace $ns (KEEP=1)" >&2
else
	for c in "${contexts[@]}"; do
		kubectl --context "$c" delete namespace "$ns" --wait=false >&2 || true
	done
fi
[ "${status:-0}" = 0 ] || exit "$status"
echo "bench: wrote $report.md" >&2
