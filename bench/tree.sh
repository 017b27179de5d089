#!/usr/bin/env bash
# bench/tree.sh [NAMESPACE RESOURCE] — the cost of one relationship tree (`t`) on the dev cluster: kscope runs
# in tmux on RESOURCE in NAMESPACE (default: shop deployments, the seeded namespace), `t` opens the first row's
# tree, and the script reports what the tree's line says once every kind is listed (time from opening to
# complete, requests, bytes) with kscope's RSS before and after and its peak, and `uptime`.
#   PODS=N first seeds N pods into NAMESPACE (devcluster seed) with a 2-replica deployment "web" to open,
#   and deletes the namespace afterwards (KEEP=1 keeps it). Run it under the e2e lock:
#   flock -o /tmp/kscope-e2e.lock bench/tree.sh tree-bench deployments
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${KSCOPE_DEVCLUSTER_CACHE:-$root/.cache/devcluster}
export KUBECONFIG=${KUBECONFIG:-$cache/state/kubeconfig}
devcluster=${KSCOPE_DEVCLUSTER:-$cache/bin/devcluster}
ns=${1:-shop}
resource=${2:-deployments}
bin=$(mktemp -d)/kscope
(cd "$root" && go build -o "$bin" .)
echo "tree: $(uptime)"
if [ -n "${PODS:-}" ]; then
	"$devcluster" seed --pods "$PODS" --namespace "$ns"
	kubectl -n "$ns" create deployment web --image=nginx:1.27 --replicas=2 >/dev/null
	[ "${KEEP:-0}" = 1 ] || trap 'kubectl delete namespace "$ns" --wait=false >/dev/null' EXIT
	echo "tree: $(kubectl get --raw "/api/v1/namespaces/$ns/pods?limit=1" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))') pods in $ns"
fi
session=kscope-tree-bench-$$
tmux new-session -d -s "$session" -x 160 -y 45 "$bin" --kubeconfig "$KUBECONFIG" -n "$ns" "$resource"
trap 'tmux kill-session -t "$session" 2>/dev/null; '"$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")" EXIT
pid=$(tmux display -p -t "$session" '#{pane_pid}')
wait_screen() { # text timeout-seconds
	for _ in $(seq $(($2 * 10))); do
		tmux capture-pane -p -t "$session" | grep -q -- "$1" && return 0
		sleep 0.1
	done
	echo "tree: the screen never showed $1" >&2
	tmux capture-pane -p -t "$session" >&2
	return 1
}
rss() { awk -v f="$1" '$1 == f":" { print int($2 / 1024) " MB" }' "/proc/$pid/status"; }
wait_screen "synced" 120
echo "tree: table of $resource in $ns: RSS $(rss VmRSS)"
tmux send-keys -t "$session" t
start=$(date +%s.%N)
wait_screen "kinds listed in" 900
end=$(date +%s.%N)
sleep 2 # the health reads and the last redraws
line=$(tmux capture-pane -p -t "$session" | grep -m1 "kinds listed in" | sed -E 's/^║//; s/ *║$//')
echo "tree: $line"
echo "tree: key to complete on screen: $(echo "$end - $start" | bc) s; RSS $(rss VmRSS), peak $(rss VmHWM)"
tmux capture-pane -p -t "$session" | sed -n 3,12p
