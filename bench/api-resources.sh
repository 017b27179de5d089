#!/usr/bin/env bash
# Times `kscope api-resources --cached` against `kubectl api-resources --cached` on the devcluster: N runs
# each (default 11, interleaved, after one warm-up each that fills the discovery disk cache), prints the
# medians in milliseconds and their ratio.
#
#   bench/api-resources.sh [N]
#
# KUBECONFIG defaults to the devcluster's; KSCOPE to bin/kscope (built if missing); KUBECTL to kubectl.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-11}
kubeconfig=${KUBECONFIG:-$root/.cache/devcluster/state/kubeconfig}
kscope=${KSCOPE:-$root/bin/kscope}
kubectl=${KUBECTL:-kubectl}

if [[ ! -f $kubeconfig ]]; then
	echo "no kubeconfig at $kubeconfig: start the devcluster first" >&2
	exit 1
fi
if [[ ! -x $kscope ]]; then
	(cd "$root" && go build -o "$kscope" .)
fi

# elapsed_ms runs a command (output discarded) and prints its wall time in milliseconds.
elapsed_ms() {
	local start end
	start=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	end=$(date +%s%N)
	echo $(((end - start) / 1000000))
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

kscope_cmd=("$kscope" --kubeconfig "$kubeconfig" api-resources --cached)
kubectl_cmd=("$kubectl" --kubeconfig "$kubeconfig" api-resources --cached)

# Warm-up: both share ~/.kube/cache/discovery, so after this both read discovery from disk.
"${kubectl_cmd[@]}" >/dev/null 2>&1 || true
"${kscope_cmd[@]}" >/dev/null 2>&1 || true

kscope_times=() kubectl_times=()
for ((i = 0; i < runs; i++)); do
	kscope_times+=("$(elapsed_ms "${kscope_cmd[@]}")")
	kubectl_times+=("$(elapsed_ms "${kubectl_cmd[@]}")")
done

kscope_median=$(printf '%s\n' "${kscope_times[@]}" | median)
kubectl_median=$(printf '%s\n' "${kubectl_times[@]}" | median)
echo "runs:    $runs each, $(nproc) cores, kubeconfig $kubeconfig"
echo "kscope:  median ${kscope_median} ms  (${kscope_times[*]})"
echo "kubectl: median ${kubectl_median} ms  (${kubectl_times[*]})"
awk -v a="$kscope_median" -v b="$kubectl_median" 'BEGIN { printf "ratio kscope/kubectl: %.2f\n", a / b }'
