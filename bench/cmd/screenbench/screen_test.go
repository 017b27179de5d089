package main

import (
	"math"
	"slices"
	"testing"
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
	b := &bench{runs: 3, runsOf: "k9s=1"}
	var k9s, kscope []int
	for run := 1; run <= 3; run++ {
		if b.runsThisTime("k9s", run) {
			k9s = append(k9s, run)
		}
		if b.runsThisTime("kscope", run) {
			kscope = append(kscope, run)
		}
	}
	if !slices.Equal(k9s, []int{2}) || !slices.Equal(kscope, []int{1, 2, 3}) {
		t.Errorf("k9s runs %v, kscope runs %v; want [2] and [1 2 3]", k9s, kscope)
	}
}

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
		if tt.name == "none measured" {
			if f.measured || cell(f) != "—" {
				t.Errorf("%s: %+v shows %q", tt.name, f, cell(f))
			}
			continue
		}
		if got := cell(f); got != tt.cell || math.IsInf(f.worst, 1) != tt.worstI {
			t.Errorf("%s: cell %q worst %v, want %q (worst infinite %v)", tt.name, got, f.worst, tt.cell, tt.worstI)
		}
	}
	p99 := changePercentile(0.99, false)([]Sample{{ChangeMS: []float64{10, 20, 30}, ChangeMisses: 1}})
	if !math.IsInf(p99.v, 1) || cell(p99) != "failed (1/4)" {
		t.Errorf("p99 with a missed probe: %+v %q", p99, cell(p99))
	}
	if invalidRuns([]Sample{{LoadAvg: "1.40 1.0 1.0"}, {LoadAvg: "2.10 1.5 1.2"}}, 1.5) != 1 {
		t.Error("the run above load 1.5 is not marked invalid")
	}
}
