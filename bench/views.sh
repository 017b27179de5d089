#!/usr/bin/env bash
# bench/views.sh [N] — kscope's pods table against the server's own list, in each state the server can be in,
# and kscope's other views at N pods (issue 34; N defaults to 50000). Seeds namespace bench-views-N with N
# pods (a namespace already holding N is kept), then runs `screenbench views`: RUNS rounds (default 3), each
#   - the pods table in three server states, made afresh before each measure: settled (as left), compacted
#     (etcd compacted just before) and restarted (the API server killed and started again just before,
#     measured as soon as /readyz says ok); in each, the floor (one whole GET of the pods as a Table without
#     objects, by the bench) and `kscope -n NS pods`, then the same in all namespaces (`kscope -A pods`);
#   - the views of the namespace: shift-h (the HEALTH column filled), t on the first pod (its tree complete),
#     `pods -o custom-columns=…` and `kscope -n NS all`, each with its time and memory;
# in an order rotated by round. Raw samples: bench/results/DATE-views-N.json; the report:
# bench/results/DATE-views-N.md (a later run the same day writes DATE-views-N-2, -3 …).
#   STATES=settled,compacted,restarted  VIEWS=health,tree,custom,all (empty: none)  KEEP=1 keeps the namespace
#   KSCOPE_DEVCLUSTER_CACHE=DIR: the devcluster of another cache folder (default .cache/devcluster)
#   MAX_LOAD=1.5: the bench refuses to start while the 1-minute load average is above it, and waits (up to
#   3 min) for it before each measure; BENCH_ANY_LOAD=1 runs anyway and the report marks every measure above it.
# The restarted state restarts the devcluster's first API server: run it on a devcluster nothing else uses.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
n=${1:-50000}
cache=${KSCOPE_DEVCLUSTER_CACHE:-$root/.cache/devcluster}
export KUBECONFIG=${KUBECONFIG:-$cache/state/kubeconfig}
ns=bench-views-$n
day=$(date -u +%F)
results=$root/bench/results
work=$root/.cache/bench
mkdir -p "$results" "$work"

kubectl get --raw /readyz >/dev/null || { echo "bench: the dev cluster is not up (make up)" >&2; exit 1; }
. "$root/bench/loadgate.sh"
load_gate
report=$(unused_name "$results/$day-views-$n") # (a second run the same day: DATE-views-N-2 …)

# Private copies, so a rebuild by someone else cannot swap a binary mid-run.
make --no-print-directory build >&2
cp bin/kscope "$work/kscope"
go build -o "$work/screenbench" ./bench/cmd/screenbench
(cd devcluster && go build -o "$work/devcluster" .)

have=$(kubectl get --raw "/api/v1/namespaces/$ns/pods?limit=1" 2>/dev/null |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))' 2>/dev/null || echo 0)
if [ "$have" -lt "$n" ]; then
	echo "bench: seeding $n pods into $ns (has $have)" >&2
	"$work/devcluster" --cache "$cache" seed --pods "$n" --namespace "$ns" >&2
	load_gate
fi

"$work/screenbench" views --namespace "$ns" --pods "$n" --kscope "$work/kscope" \
	--devcluster "$work/devcluster" --devcluster-cache "$cache" --runs "${RUNS:-3}" --max-load "$max_load" \
	--states "${STATES:-settled,compacted,restarted}" --views "${VIEWS-health,tree,custom,all}" \
	--out "$report.json" --report "$report.md" || status=$?
if [ "${KEEP:-0}" = 1 ]; then
	echo "bench: keeping namespace $ns (KEEP=1)" >&2
else
	kubectl delete namespace "$ns" --wait=false >&2 || true
fi
[ "${status:-0}" = 0 ] || exit "$status"
echo "bench: wrote $report.md" >&2
