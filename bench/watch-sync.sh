#!/usr/bin/env bash
# bench/watch-sync.sh [N ...] — for each N (default: 10000 50000), make sure namespace bench-N holds N pods
# (devcluster seed), then run bench/cmd/syncbench three times: a kscope watch.Source on those pods, from start
# to Synced. Prints the medians of first-sync time, time to the first sorted table, time until every row has
# its metadata (one-namespace views list rows without objects first), peak RSS, heap bytes per row, and the
# cost of a re-sort and a filter once the table is complete. Run it on a quiet machine: the API server shares the cores.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export KUBECONFIG=${KUBECONFIG:-$root/.cache/devcluster/state/kubeconfig}
devcluster=$root/.cache/devcluster/bin/devcluster
runs=${RUNS:-3}
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 50000)

cd "$root"
go build -o "$root/bin/syncbench" ./bench/cmd/syncbench

pod_count() { # pods in namespace $1, from one page's remainingItemCount
	kubectl get --raw "/api/v1/namespaces/$1/pods?limit=1" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))' 2>/dev/null || echo 0
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
field() { sed -n "s/.*\b$1=\([^ ]*\).*/\1/p"; }

row='%-7s %-5s %-7s %-14s %-9s %-12s %-14s %-8s %-9s\n'
printf "$row" pods runs sync_s first_table_s filled_s peak_rss_mb bytes_per_row sort_ms filter_ms
for n in "${sizes[@]}"; do
	ns=bench-$n
	have=$(pod_count "$ns")
	if [ "$have" -lt "$n" ]; then
		echo "seeding $n pods into $ns (has $have)" >&2
		"$devcluster" seed --pods "$n" --namespace "$ns" >&2
	fi
	out=$(mktemp)
	for _ in $(seq "$runs"); do
		"$root/bin/syncbench" --namespace "$ns" | tee -a "$out" >&2
	done
	echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	printf "$row" "$(field rows <"$out" | head -1)" "$runs" \
		"$(field sync_s <"$out" | median)" "$(field first_table_s <"$out" | median)" "$(field filled_s <"$out" | median)" \
		"$(field peak_rss_mb <"$out" | median)" "$(field bytes_per_row <"$out" | median)" \
		"$(field sort_ms <"$out" | median)" "$(field filter_ms <"$out" | median)"
	rm -f "$out"
done
