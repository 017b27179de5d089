package main

import (
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
		median float64 // of the measured (positive) values; -1 when none
		medAll float64 // zeros included
		p99    float64
	}{
		{[]float64{3, 1, 2}, 2, 2, 3},
		{[]float64{4, 1, 0, 2}, 2, 1.5, 4},
		{[]float64{0, 0, 0.05}, 0.05, 0, 0.05},
		{nil, -1, -1, 0},
	} {
		var runs []Sample
		for _, v := range tc.values {
			runs = append(runs, Sample{LaunchS: v})
		}
		if got := medianOf(func(s Sample) float64 { return s.LaunchS })(runs); got != tc.median {
			t.Errorf("medianOf(%v) = %v, want %v", tc.values, got, tc.median)
		}
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
