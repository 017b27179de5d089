#!/usr/bin/env bash
# bench/screen.sh [N ...] — kscope, k9s v0.50.16 and `kubectl get pods` side by side, in one run per size N
# (default: 10000 50000; 200000 works too, seeding takes minutes, and k9s is skipped above 100000 pods, as the
# report says): seeds namespace bench-N with N pods (devcluster seed), runs bench/cmd/screenbench (each tool
# RUNS times, interleaved; figures are medians), deletes the namespace, and writes the combined table of the
# day to bench/results/DATE.md (raw samples: bench/results/DATE-N.json). Each round also times every tool's
# launch in all namespaces (ALL_NS=0 skips it): that figure is for a cluster holding about N pods, so the
# namespace of the previous size is deleted, and waited for, before the next size is seeded.
#   RUNS=3  PROFILE=1 (an extra kscope run with --cpuprofile/--memprofile into bench/results/profiles)
#   LAUNCH_ONLY=true measures the launches only (first screen, complete table, RSS), not the phases after;
#   KEEP=1 keeps the namespaces; TOOLS=kscope,k9s,kubectl; RUNS_OF=k9s=1 gives a tool fewer runs;
#   K9S_MAX_PODS=100000: k9s is not run above it;
#   LABEL=x writes DATE-N-x.json (a re-run next to the first one of the day)
#   KSCOPE_BEFORE=REV also measures kscope built from git revision REV, as the tool kscope-before, interleaved
#   with the others (the report adds a table of kscope against it: a change's cost, side by side)
#   MAX_LOAD=1.5: the bench refuses to start while the 1-minute load average is above it (figures taken on a
#   busy machine mislead); BENCH_ANY_LOAD=1 runs anyway and the report marks every run above it as invalid.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export KUBECONFIG=${KUBECONFIG:-$root/.cache/devcluster/state/kubeconfig}
devcluster=$root/.cache/devcluster/bin/devcluster
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(10000 50000)
day=$(date -u +%F)
results=$root/bench/results
work=$root/.cache/bench
mkdir -p "$results" "$work"

kubectl get --raw /readyz >/dev/null || { echo "bench: the dev cluster is not up (make up)" >&2; exit 1; }
. "$root/bench/loadgate.sh"
load_gate

# Private copies, so a rebuild of bin/kscope by someone else cannot swap the binary mid-run.
make --no-print-directory build >&2
cp bin/kscope "$work/kscope"
go build -o "$work/patchload" ./bench/cmd/patchload
go build -o "$work/screenbench" ./bench/cmd/screenbench
before=()
tools=${TOOLS:-kscope,k9s,kubectl}
if [ -n "${KSCOPE_BEFORE:-}" ]; then
	src=$(mktemp -d "$work/before-XXXXXX")
	git archive "$KSCOPE_BEFORE" | tar -x -C "$src"
	(cd "$src" && CGO_ENABLED=0 go build -ldflags "-X main.version=$(git -C "$root" rev-parse --short "$KSCOPE_BEFORE")" -o "$work/kscope-before" .) >&2
	rm -rf "$src"
	before=(--kscope-before "$work/kscope-before")
	case ",$tools," in *,kscope-before,*) ;; *) tools=$tools,kscope-before ;; esac
fi

k9s=$root/.cache/devcluster/bin/k9s
case ",${TOOLS:-kscope,k9s,kubectl}," in
*,k9s,*)
	while [ ! -x "$k9s" ] && pgrep -f 'go install github.com/derailed/k9s' >/dev/null; do
		echo "bench: waiting for a k9s build in progress…" >&2
		sleep 20
	done
	k9s=$(bench/install-k9s.sh)
	;;
*) k9s="" ;; # (not measured: not built)
esac

pod_count() { # pods in namespace $1 (empty: the whole cluster), from one page's remainingItemCount
	kubectl get --raw "/api/v1/${1:+namespaces/$1/}pods?limit=1" 2>/dev/null |
		python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"])+d["metadata"].get("remainingItemCount",0))' 2>/dev/null || echo 0
}

profile=()
[ "${PROFILE:-0}" = 1 ] && profile=(--profile-dir "$results/profiles")

deleting=""
for n in "${sizes[@]}"; do
	ns=bench-$n
	if [ -n "$deleting" ]; then
		echo "bench: waiting for namespace $deleting to go (the all-namespaces launch counts every pod)…" >&2
		kubectl wait --for=delete "namespace/$deleting" --timeout=30m >&2 ||
			echo "bench: namespace $deleting is still there; the report shows how many pods the cluster held" >&2
		deleting=""
	fi
	have=$(pod_count "$ns")
	if [ "$have" -lt "$n" ]; then
		echo "bench: seeding $n pods into $ns (has $have)" >&2
		"$devcluster" seed --pods "$n" --namespace "$ns" >&2
	fi
	echo "bench: the cluster holds $(pod_count "") pods ($ns: $(pod_count "$ns"))" >&2
	"$work/screenbench" run --namespace "$ns" --pods "$n" --runs "${RUNS:-3}" --tools "$tools" "${before[@]}" \
		--kscope "$work/kscope" --k9s "$k9s" --k9s-config "$root/.cache/devcluster/k9s" \
		--patchload "$work/patchload" --runs-of "${RUNS_OF:-}" --max-load "$max_load" "${profile[@]}" \
		--all-namespaces="${ALL_NS:-1}" --launch-only="${LAUNCH_ONLY:-false}" --k9s-max-pods "${K9S_MAX_PODS:-100000}" --out "$results/$day-$n${LABEL:+-$LABEL}.json" || status=$?
	if [ "${KEEP:-0}" = 1 ]; then
		echo "bench: keeping namespace $ns (KEEP=1)" >&2
	elif pgrep -f 'bin/syncbench' >/dev/null; then
		echo "bench: syncbench is running; leaving namespace $ns for it" >&2
	else
		kubectl delete namespace "$ns" --wait=false >&2
		deleting=$ns
	fi
	[ "${status:-0}" = 0 ] || exit "$status"
	if [ "${PROFILE:-0}" = 1 ]; then
		prof=$results/profiles/kscope-$n
		{
			echo "# kscope at $n pods: CPU of the whole session (launch, settle, idle, churn, latency, filter, sort)"
			go tool pprof -top -nodecount=30 "$work/kscope" "$prof.cpu" 2>/dev/null
			echo; echo "# cumulative, kscope and its libraries"
			go tool pprof -top -cum -nodecount=45 "$work/kscope" "$prof.cpu" 2>/dev/null | tail -n +7
			echo; echo "# live heap 10 s after the table was complete (inuse_space)"
			go tool pprof -top -sample_index=inuse_space -nodecount=25 "$work/kscope" "$prof.mem.1" 2>/dev/null
			echo; echo "# live heap after 20 s at 200 patches/s (inuse_space)"
			go tool pprof -top -sample_index=inuse_space -nodecount=15 "$work/kscope" "$prof.mem.2" 2>/dev/null
			echo; echo "# allocations over the session (alloc_space)"
			go tool pprof -top -sample_index=alloc_space -nodecount=25 "$work/kscope" "$prof.mem" 2>/dev/null
		} >"$results/$day-profile-$n.txt"
	fi
done

day_results=()
for f in "$results/$day"-*.json; do
	case $f in *-clusters-*) ;; *) day_results+=("$f") ;; esac # bench/clusters.sh's: a report of their own
done
"$work/screenbench" report --max-load "$max_load" --out "$results/$day.md" "${day_results[@]}"
echo "bench: wrote $results/$day.md" >&2
