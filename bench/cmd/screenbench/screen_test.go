package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRowCount(t *testing.T) {
	for _, tc := range []struct {
		line string
		want int
	}{
		{"╔═══ pods(bench-10000)[10000] ═══╗", 10000},
		{"┌─── pods(bench-10000)[10,000] ───┐", 10000},
		{"┌─── pods(bench-10000)[1] </scale-005007> ───┐", 1},
		{"│ NAME↑  READY │", -1},
		{"╔═══ pods(bench-50000)[250] listing 250 of 50000… ═══╗", 250},
		{"┌─── pods(all)[50,000] ───┐", 50000},
	} {
		if got := rowCount([]string{"header", tc.line}); got != tc.want {
			t.Errorf("rowCount(%q) = %d, want %d", tc.line, got, tc.want)
		}
	}
}

func TestOrder(t *testing.T) {
	row := func(name string) string { return "│ " + name + "   1/1   Running   0   5m │" }
	for _, tc := range []struct {
		names []string
		want  int
	}{
		{[]string{"scale-000001", "scale-000002", "scale-000010"}, 1},
		{[]string{"scale-009999", "scale-009998", "scale-000100"}, -1},
		{[]string{"scale-000001", "scale-000003", "scale-000002"}, 0},
		{[]string{"scale-000001", "scale-000002"}, 0},
	} {
		var screen []string
		for _, n := range tc.names {
			screen = append(screen, row(n))
		}
		if got := order(screen); got != tc.want {
			t.Errorf("order(%v) = %d, want %d", tc.names, got, tc.want)
		}
		if got := visiblePods(screen); !slices.Equal(got, tc.names) {
			t.Errorf("visiblePods = %v, want %v", got, tc.names)
		}
	}
}

func TestMedianAndPercentile(t *testing.T) {
	for _, tc := range []struct {
		values []float64
		medAll float64 // zeros included
		p99    float64
	}{
		{[]float64{3, 1, 2}, 2, 3},
		{[]float64{4, 1, 0, 2}, 1.5, 4},
		{[]float64{0, 0, 0.05}, 0, 0.05},
		{nil, -1, 0},
	} {
		if got := medianAll(tc.values); got != tc.medAll {
			t.Errorf("medianAll(%v) = %v, want %v", tc.values, got, tc.medAll)
		}
		if got := percentile(tc.values, 0.99); got != tc.p99 {
			t.Errorf("percentile(%v, 0.99) = %v, want %v", tc.values, got, tc.p99)
		}
	}
}

func TestRunsThisTime(t *testing.T) {
	b := &bench{runs: 3, runsOf: "k9s=1,kubectl=2", kubectl: true}
	var k9s, kscope, kubectl []int
	for run := 1; run <= 3; run++ {
		if b.runsThisTime("k9s", run) {
			k9s = append(k9s, run)
		}
		if b.runsThisTime("kscope", run) {
			kscope = append(kscope, run)
		}
		if b.kubectlRuns(run) {
			kubectl = append(kubectl, run)
		}
	}
	if !slices.Equal(k9s, []int{2}) || !slices.Equal(kscope, []int{1, 2, 3}) || !slices.Equal(kubectl, []int{1, 2}) {
		t.Errorf("k9s runs %v, kscope runs %v, kubectl runs %v; want [2], [1 2 3] and [1 2]", k9s, kscope, kubectl)
	}
}

func TestTitleOf(t *testing.T) {
	for _, tc := range []struct {
		line string
		want tableTitle
	}{
		// kscope while its first list arrives in pages, then complete; in all namespaces (-A).
		{"╔════ pods(bench-50000)[250] listing 250 of 50000… ════╗", tableTitle{"bench-50000", 250, true}},
		{"╔════ pods(bench-50000)[10250] listing 10250 of 50000… ═╗", tableTitle{"bench-50000", 10250, true}},
		{"╔════ pods(bench-50000)[50000] ════╗", tableTitle{"bench-50000", 50000, false}},
		{"╔════ pods(all)[1200] listing 1200 of 50012… ════╗", tableTitle{"all", 1200, true}},
		{"╔════ pods(all)[50012] ════╗", tableTitle{"all", 50012, false}},
		{"╔════ pods(bench-50000)[1] </scale-025007> ════╗", tableTitle{"bench-50000", 1, false}},
		// k9s v0.50.16: NSTitleFmt with thousands separators; "all" in all namespaces.
		{"┌──────── pods(bench-50000)[50,000] ────────┐", tableTitle{"bench-50000", 50000, false}},
		{"┌──────── pods(all)[50,012] ────────┐", tableTitle{"all", 50012, false}},
		// "listing" elsewhere on the line is not the title's.
		{"╔═ pods(bench-50000)[50000] ═══ listing ═╗", tableTitle{"bench-50000", 50000, false}},
	} {
		got, ok := titleOf([]string{"  context: dev", tc.line, "│ NAME  READY │"})
		if !ok || got != tc.want {
			t.Errorf("titleOf(%q) = %+v %v, want %+v", tc.line, got, ok, tc.want)
		}
	}
	if _, ok := titleOf([]string{"│ listing pods … │"}); ok {
		t.Error("a screen without a title has one")
	}
}

// screenOf is a screen with the title line and one row per pod name.
func screenOf(title string, names ...string) []string {
	sc := []string{title, "│ NAME           READY   STATUS    IP │"}
	for _, n := range names {
		sc = append(sc, "│ "+n+"   1/1     Running   10.0.0.1 │")
	}
	return sc
}

// TestLaunchWatch: the first screen of rows is the first capture with a pod row (and says whether the
// title said "listing"); the table is complete only when the count is the server's and it no longer lists.
func TestLaunchWatch(t *testing.T) {
	seen := func(n int) bool { return n == 50000 || n == 49999 }
	kscope := []string{
		"╔═ pods(bench-50000)[0] ═╗\n│ listing pods … │",
		"╔═ pods(bench-50000)[250] listing 250 of 50000… ═╗\n│ scale-000000   1/1 │",
		"╔═ pods(bench-50000)[50000] listing 50000 of 50000… ═╗\n│ scale-000000   1/1 │",
		"╔═ pods(bench-50000)[49999] ═╗\n│ scale-000000   1/1 │",
	}
	k9s := []string{
		"┌─ pods(bench-50000)[0] ─┐",
		"┌─ pods(bench-50000)[50,000] ─┐\n│ scale-000000   ●   1/1 │",
	}
	for _, tc := range []struct {
		name     string
		screens  []string
		complete int // index of the first complete screen
		first    int // index of the first screen of rows
		listing  bool
	}{
		{"kscope", kscope, 3, 1, true},
		{"k9s", k9s, 1, 1, false},
	} {
		w := &launchWatch{check: titleCheck(seen)}
		done := -1
		for i, sc := range tc.screens {
			if w.complete(strings.Split(sc, "\n"), time.Duration(i+1)*time.Second) {
				done = i
				break
			}
		}
		if done != tc.complete || w.first != time.Duration(tc.first+1)*time.Second || w.listing != tc.listing {
			t.Errorf("%s: complete at %d, first %s listing %v; want %d, %ds, %v", tc.name, done, w.first, w.listing,
				tc.complete, tc.first+1, tc.listing)
		}
	}
}

func TestIPOrder(t *testing.T) {
	// 20 pods whose IPs are out of name order (as kwok hands them out), pod 19 without an address yet.
	ips := map[string]string{}
	var byIP []string // names in IP order
	for i := range 19 {
		ip := fmt.Sprintf("10.0.%d.%d", (i*7)%19/10, (i*7)%19+2) // a permutation; 10.0.0.9 < 10.0.0.10
		ips[fmt.Sprintf("scale-%06d", i)] = ip
	}
	ips["scale-000019"] = ""
	byIP = sortedByIP(ips)
	o := newIPOrder(ips)
	var byName []string
	for i := range 20 {
		byName = append(byName, fmt.Sprintf("scale-%06d", i))
	}
	title := "╔═ pods(bench-20)[20] ═╗"
	for _, tc := range []struct {
		name  string
		names []string
		want  bool
	}{
		{"top of the IP order", byIP[:8], true},
		{"the middle of it (the cursor followed its object)", byIP[6:14], true},
		{"its end, with the pod that has no address last", byIP[12:], true},
		{"a pod the server did not list is skipped", append(slices.Clone(byIP[:4]), append([]string{"scale-999999"}, byIP[4:8]...)...), true},
		{"a pod deleted since the list leaves a gap", append(slices.Clone(byIP[:4]), byIP[5:9]...), true},
		{"name order", byName[:10], false},
		{"descending IP order", reversed(byIP[:8]), false},
		{"a jump over more than a few pods", append(slices.Clone(byIP[:3]), byIP[10:13]...), false},
		{"too few rows", byIP[:minSortRows-1], false},
	} {
		if got := o.shows(screenOf(title, tc.names...)); got != tc.want {
			t.Errorf("%s: shows(%v) = %v, want %v", tc.name, tc.names, got, tc.want)
		}
	}
	none := newIPOrder(map[string]string{"scale-000001": "", "scale-000002": "", "scale-000003": "", "scale-000004": "", "scale-000005": "", "scale-000006": ""})
	if none.shows(screenOf(title, "scale-000001", "scale-000002", "scale-000003", "scale-000004", "scale-000005", "scale-000006")) {
		t.Error("rows that all lack an address count as IP order")
	}
}

// sortedByIP orders pod names by address (numerically, as natural order does), no address last.
func sortedByIP(ips map[string]string) []string {
	var names []string
	for n := range ips {
		names = append(names, n)
	}
	key := func(n string) string {
		var a, b, c, d int
		if _, err := fmt.Sscanf(ips[n], "%d.%d.%d.%d", &a, &b, &c, &d); err != nil {
			return "~"
		}
		return fmt.Sprintf("%03d.%03d.%03d.%03d", a, b, c, d)
	}
	slices.SortFunc(names, func(x, y string) int { return strings.Compare(key(x), key(y)) })
	return names
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func TestReadRows(t *testing.T) {
	out := "NAME           READY   STATUS\nscale-000000   1/1     Running\nscale-000001   1/1     Running\n"
	first, lines := readRows(strings.NewReader(out), time.Now().Add(-time.Second))
	if lines != 3 || first < time.Second {
		t.Errorf("readRows: first %s lines %d, want ≥ 1s and 3", first, lines)
	}
	if first, lines := readRows(strings.NewReader("NAME   READY\n"), time.Now()); first != 0 || lines != 1 {
		t.Errorf("readRows of a header only: first %s lines %d", first, lines)
	}
}
