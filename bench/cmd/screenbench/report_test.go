package main

import (
	"math"
	"strings"
	"testing"
)

// TestFiguresCountFailures: a run that did not measure a figure, and a probe never seen, count as
// infinitely slow; the target's worst run decides whether it was met.
func TestFiguresCountFailures(t *testing.T) {
	launch := medianOf(func(s Sample) float64 { return s.LaunchS })
	tests := []struct {
		name   string
		runs   []Sample
		cell   string
		worstI bool
	}{
		{"all measured", []Sample{{LaunchS: 1}, {LaunchS: 3}, {LaunchS: 2}}, "2.00", false},
		{"one failed", []Sample{{LaunchS: 1}, {}, {LaunchS: 2}}, "2.00 (1/3 failed)", true},
		{"most failed", []Sample{{LaunchS: 1}, {}, {}}, "failed (2/3)", true},
		{"none measured", []Sample{{}, {}}, "failed (2/2)", true},
	}
	for _, tt := range tests {
		f := launch(tt.runs)
		if got := cellText(f, true); got != tt.cell || math.IsInf(f.worst, 1) != tt.worstI {
			t.Errorf("%s: cell %q worst %v, want %q (worst infinite %v)", tt.name, got, f.worst, tt.cell, tt.worstI)
		}
		if got := cellText(f, false); got != "—" {
			t.Errorf("%s, not attempted: cell %q, want a dash", tt.name, got)
		}
	}
	p99 := changePercentile(0.99, false)([]Sample{{ChangeMS: []float64{10, 20, 30}, ChangeMisses: 1}})
	if !math.IsInf(p99.v, 1) || cellText(p99, true) != "failed (1/4)" {
		t.Errorf("p99 with a missed probe: %+v %q", p99, cellText(p99, true))
	}
	noProbes := changePercentile(0.99, false)([]Sample{{ChangeMS: []float64{10}}, {}})
	if noProbes.failed != 1 || noProbes.of != 2 || !math.IsInf(noProbes.v, 1) {
		t.Errorf("a run without probes is not a probe never seen: %+v", noProbes)
	}
	if invalidRuns([]Sample{{LoadAvg: "1.40 1.0 1.0"}, {LoadAvg: "2.10 1.5 1.2"}}, 1.5) != 1 {
		t.Error("the run above load 1.5 is not marked invalid")
	}
}

// row renders the report row of metric id for r, split into its cells ("" if no row is printed).
func row(t *testing.T, r *Results, id string) []string {
	t.Helper()
	for _, m := range reportMetrics() {
		if m.id == id {
			var b strings.Builder
			writeRow(&b, r, m, 1.5)
			if b.Len() == 0 {
				return nil
			}
			cells := strings.Split(strings.Trim(strings.TrimSpace(b.String()), "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			return cells
		}
	}
	t.Fatalf("no metric %q", id)
	return nil
}

// TestReportRows: the new figures' rows — failed runs shown as failed (never dropped), a skipped tool said
// so, kubectl's dash for what it does not have, the all-namespaces rows and their cluster-size guard.
func TestReportRows(t *testing.T) {
	const load = "0.50 0.50 0.50"
	r := &Results{Pods: 50000, label: "50000", Figures: figureIDs(true, false),
		Runs: map[string][]Sample{
			"kscope":  {{LoadAvg: load, FirstS: 0.2, LaunchS: 0.8, SortOtherMS: 30}, {LoadAvg: load, FirstS: 0.25, LaunchS: 0.9}},
			"k9s":     {{LoadAvg: load, FirstS: 9, LaunchS: 9, SortOtherMS: 900}},
			"kubectl": {{LoadAvg: load, FirstS: 20, LaunchS: 20}},
		},
		AllNamespaces: map[string][]Sample{
			"kscope":  {{LoadAvg: load, FirstS: 0.3, LaunchS: 1.5, ClusterPods: 50010}},
			"kubectl": {{LoadAvg: load, LaunchS: 21, ClusterPods: 50010}}, // no first row: failed
		},
	}
	// pods | measure | kscope | k9s | kubectl | kscope/k9s | kscope/kubectl | target | met
	check := func(id string, want ...string) {
		t.Helper()
		got := row(t, r, id)
		if len(got) != 9 {
			t.Fatalf("%s: row %q", id, got)
		}
		for i, w := range want {
			if w != "*" && got[2+i] != w {
				t.Errorf("%s: cell %d = %q, want %q (row %q)", id, 2+i, got[2+i], w, got)
			}
		}
	}
	check("first", "0.225", "9.00", "20", "0.03", "0.01", "≤ 0.300", "yes")
	check("launch", "0.850", "9.00", "20", "*", "*", "≤ 1.00", "yes")
	check("sort_other", "failed (1/2)", "900", "—", "—", "—", "≤ 50", "no")
	check("all_launch", "1.50", "—", "21", "—", "0.07", "≤ 2.00", "yes")
	check("all_first", "0.300", "—", "failed (1/1)", "—", "—", "", "")

	r.Runs["kscope"][1].SortOtherMS = 60 // every run measured; one missed the target
	check("sort_other", "45", "900", "—", "0.05", "—", "≤ 50", "no")
	r.Runs["kscope"][1].SortOtherMS = 40
	check("sort_other", "35", "900", "—", "0.04", "—", "≤ 50", "yes")

	r.AllNamespaces["kscope"][0].ClusterPods = 100000 // another namespace's pods: not the 50k target
	check("all_launch", "1.50", "—", "21", "—", "0.07", "≤ 2.00", "n/a (100000 pods in the cluster)")

	r.Runs["kscope"][0].LoadAvg = "3.00 2.00 1.00"
	check("first", "*", "*", "*", "*", "*", "≤ 0.300", "invalid (load)")
}

// TestReportSkipsAndOldResults: k9s skipped at a size shows as skipped with a note; results written before
// a figure existed print no row for it, as before.
func TestReportSkipsAndOldResults(t *testing.T) {
	r := &Results{Pods: 200000, label: "200000", Figures: figureIDs(false, false),
		Skipped: map[string]string{"k9s": "not run above 100000 pods (--k9s-max-pods)"},
		Runs: map[string][]Sample{
			"kscope":  {{FirstS: 0.3, FirstListing: true, LaunchS: 3.5, RSSMB: 400}},
			"kubectl": {{FirstS: 90, LaunchS: 95}},
		},
	}
	if got := row(t, r, "launch"); got == nil || got[3] != "skipped" || got[8] != "yes" {
		t.Errorf("200k launch row %q: want k9s skipped, target met", got)
	}
	if got := row(t, r, "all_launch"); got != nil {
		t.Errorf("all namespaces not measured, yet a row: %q", got)
	}
	var b strings.Builder
	writeNotes(&b, []*Results{r})
	for _, want := range []string{"200000 pods: k9s not run above 100000 pods", "in 1 of 1 runs"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("notes %q lack %q", b.String(), want)
		}
	}
	old := &Results{Pods: 10000, label: "10000", Runs: map[string][]Sample{"kscope": {{LaunchS: 0.3}}, "k9s": {{LaunchS: 5}}}}
	if got := row(t, old, "first"); got != nil {
		t.Errorf("an old result without first-screen samples prints a row: %q", got)
	}
	if got := row(t, old, "launch"); got == nil || got[2] != "0.300" {
		t.Errorf("old result's launch row: %q", got)
	}
}

// TestFigureIDsLaunchOnly: a launch-only run sets out to measure the launch figures only.
func TestFigureIDsLaunchOnly(t *testing.T) {
	got := strings.Join(figureIDs(true, true), " ")
	if want := "first launch rss peak_rss all_first all_launch all_rss all_peak_rss"; got != want {
		t.Errorf("figureIDs(true, true) = %q, want %q", got, want)
	}
	if got := strings.Join(figureIDs(false, true), " "); got != "first launch rss peak_rss" {
		t.Errorf("figureIDs(false, true) = %q", got)
	}
}

// TestReportBeforeTable: runs of an earlier binary (--kscope-before) get a table of their own, kscope's
// figure beside the earlier one and their ratio; without them there is none.
func TestReportBeforeTable(t *testing.T) {
	const load = "0.50 0.50 0.50"
	r := &Results{Pods: 10000, label: "10000", Figures: figureIDs(false, true),
		Versions: map[string]string{"kscope": "v0.1.0 (new)", beforeTool: "v0.1.0 (old)"},
		Runs: map[string][]Sample{
			"kscope":   {{LoadAvg: load, FirstS: 0.2, LaunchS: 0.5}, {LoadAvg: load, FirstS: 0.2, LaunchS: 0.7}},
			beforeTool: {{LoadAvg: load, FirstS: 0.25, LaunchS: 0.6}, {LoadAvg: load, FirstS: 0.15, LaunchS: 0.6}},
		},
	}
	var b strings.Builder
	writeBeforeTable(&b, []*Results{r})
	for _, want := range []string{
		"10000 pods: kscope v0.1.0 (new); before: v0.1.0 (old).",
		"| 10000 | launch → first screen of rows (s) | 0.200 | 0.200 | 1.00 |",
		"| 10000 | launch → complete table (s) | 0.600 | 0.600 | 1.00 |",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no %q in:\n%s", want, b.String())
		}
	}
	delete(r.Runs, beforeTool)
	b.Reset()
	writeBeforeTable(&b, []*Results{r})
	if b.Len() != 0 {
		t.Errorf("a table without runs of the earlier binary:\n%s", b.String())
	}
}
