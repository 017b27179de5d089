package main

import (
	"math"
	"strings"
	"testing"
)

func TestClusterTargets(t *testing.T) {
	ctx := []string{"a", "b"}
	ok := func(launch, peak float64) Sample {
		return Sample{LaunchS: launch, PeakRSSMB: peak, LoadAvg: "0.5 0.5 0.5"}
	}
	failed := Sample{Errors: []string{"launch: not on screen"}, LoadAvg: "0.5 0.5 0.5"}
	tests := []struct {
		name          string
		rounds        []ClusterRound
		ratios        []float64
		rss           float64
		completeMet   string
		wantInReport  string
		wantNotReport string
	}{
		{"met", []ClusterRound{
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(2, 60)}, Multi: ok(2.4, 150)},
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 60)}, Multi: ok(1.2, 160)},
		}, []float64{1.2, 1.2}, 155.0 / 55, "yes (every round)", "", "sessions started above"},
		{"the slowest single cluster sets the bar", []ClusterRound{
			{Single: map[string]Sample{"a": ok(4, 50), "b": ok(1, 50)}, Multi: ok(6, 100)},
		}, []float64{1.5}, 2, "no", "", ""},
		{"a failed single session fails the round's ratio", []ClusterRound{
			{Single: map[string]Sample{"a": ok(1, 50), "b": failed}, Multi: ok(1, 100)},
		}, []float64{math.Inf(1)}, math.Inf(1), "no", "failed", ""},
		{"a failed table over all fails it", []ClusterRound{
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 50)}, Multi: failed},
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 50)}, Multi: ok(1.1, 100)},
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 50)}, Multi: ok(1.2, 100)},
		}, []float64{math.Inf(1), 1.1, 1.2}, 2, "by the median, not in every round", "failed", ""},
		{"each alone at once is the fair comparison", []ClusterRound{
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 50)}, Multi: ok(3, 120), Together: ok(2, 100)},
			{Single: map[string]Sample{"a": ok(1, 50), "b": ok(1, 50)}, Multi: ok(2.4, 110), Together: ok(2, 100)},
		}, []float64{3, 2.4}, 115.0 / 50, "no", "all started at once (the same load on the servers), the table over all completes in 1.35× their time (median; per round 1.50, 1.20) and peaks at 1.15× the sum of their peaks (per round 1.20, 1.10)", ""},
		{"a busy session is marked", []ClusterRound{
			{Single: map[string]Sample{"a": ok(1, 50), "b": {LaunchS: 1, PeakRSSMB: 50, LoadAvg: "3.1 2 2"}}, Multi: ok(1, 100)},
		}, []float64{1}, 2, "yes (every round)", "1 of 3 sessions started above", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := &ClusterResults{Bench: "clusters", Namespace: "ns", Pods: 10, Contexts: ctx, MaxLoad: 1.5, Rounds: tt.rounds}
			for i, r := range tt.rounds {
				res.Rounds[i].Order = []string{"a", "b", allClusters}
				got := r.completeRatio(ctx)
				if math.Abs(got-tt.ratios[i]) > 1e-9 && !(math.IsInf(got, 1) && math.IsInf(tt.ratios[i], 1)) {
					t.Errorf("round %d: completeRatio = %v, want %v", i, got, tt.ratios[i])
				}
			}
			if got := res.rssRatio(); math.Abs(got-tt.rss) > 1e-9 && !(math.IsInf(got, 1) && math.IsInf(tt.rss, 1)) {
				t.Errorf("rssRatio = %v, want %v", got, tt.rss)
			}
			report := clusterReport(res)
			line := ""
			for _, l := range strings.Split(report, "\n") {
				if strings.HasPrefix(l, "| complete ≤") {
					line = l
				}
			}
			if !strings.HasSuffix(line, "| "+tt.completeMet+" |") {
				t.Errorf("target line %q, want it to end in %q", line, tt.completeMet)
			}
			if tt.wantInReport != "" && !strings.Contains(report, tt.wantInReport) {
				t.Errorf("report lacks %q:\n%s", tt.wantInReport, report)
			}
			if tt.wantNotReport != "" && strings.Contains(report, tt.wantNotReport) {
				t.Errorf("report has %q:\n%s", tt.wantNotReport, report)
			}
		})
	}
}
