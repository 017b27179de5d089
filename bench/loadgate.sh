# bench/loadgate.sh — sourced by the bench scripts: load_gate refuses to start a bench while the 1-minute load
# average is above MAX_LOAD (default 1.5): figures taken on a busy machine mislead. BENCH_ANY_LOAD=1 runs
# anyway, and the report marks what ran above it.
load_gate() {
	echo "bench: $(uptime)" >&2
	max_load=${MAX_LOAD:-1.5}
	local load
	load=$(cut -d' ' -f1 /proc/loadavg)
	if awk -v l="$load" -v m="$max_load" 'BEGIN { exit !(l > m) }'; then
		if [ "${BENCH_ANY_LOAD:-0}" != 1 ]; then
			echo "bench: the 1-minute load average is $load (> $max_load): the figures would mislead; wait for a quiet machine (or BENCH_ANY_LOAD=1 to mark the runs invalid)" >&2
			exit 1
		fi
		echo "bench: load $load > $max_load: the report will mark the runs above it" >&2
	fi
}

# unused_name BASE prints BASE, or BASE-2, BASE-3 … when a report of that name (BASE.md or BASE.json) exists
# already: a second run on the same day keeps the first one's report rather than writing over it.
unused_name() {
	local name=$1 i=2
	while [ -e "$name.md" ] || [ -e "$name.json" ]; do
		name="$1-$i"
		i=$((i + 1))
	done
	echo "$name"
}
