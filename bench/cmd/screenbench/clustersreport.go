package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
)

// Issue 33's targets for a table over several clusters.
const (
	// completeTarget: its complete time at most this many times the slowest single cluster's, in the same round.
	completeTarget = 1.3
	// rssTarget: its peak RSS at most this many times a single cluster's (the median of their peaks).
	rssTarget = 3.2
)

// renderClusterReport writes (or prints) the report of the results file from.
func renderClusterReport(from, out string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var res ClusterResults
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("read %s: %w", from, err)
	}
	if res.Bench != "clusters" {
		return fmt.Errorf("%s is not the results of `screenbench clusters`", from)
	}
	if out == "" {
		fmt.Print(clusterReport(&res))
		return nil
	}
	return os.WriteFile(out, []byte(clusterReport(&res)), 0o644)
}

// failedAsInf is a launch figure with a failed launch counted as infinitely slow.
func failedAsInf(s Sample, v float64) float64 {
	if s.LaunchS <= 0 {
		return math.Inf(1)
	}
	return v
}

// completeRatio is round r's complete time over all clusters over its slowest single cluster's (+Inf when any
// of its sessions failed: the ratio is then not measured, and counts as failed).
func (r ClusterRound) completeRatio(contexts []string) float64 {
	slowest := 0.0
	for _, c := range contexts {
		slowest = max(slowest, failedAsInf(r.Single[c], r.Single[c].LaunchS))
	}
	if math.IsInf(slowest, 1) {
		return slowest
	}
	return failedAsInf(r.Multi, r.Multi.LaunchS) / slowest
}

// singlePeaks are the peak RSS of every single-cluster session (a failed one counts as +Inf).
func (res *ClusterResults) singlePeaks() []float64 {
	var v []float64
	for _, r := range res.Rounds {
		for _, c := range res.Contexts {
			v = append(v, failedAsInf(r.Single[c], r.Single[c].PeakRSSMB))
		}
	}
	return v
}

// rssRatio is the median peak RSS over all clusters over the median single-cluster peak (+Inf when any
// session failed).
func (res *ClusterResults) rssRatio() float64 {
	var multi []float64
	for _, r := range res.Rounds {
		multi = append(multi, failedAsInf(r.Multi, r.Multi.PeakRSSMB))
	}
	return rssRatioOf(median(multi), res.singlePeaks())
}

// rssRatioOf is peak over the median of singles, +Inf when any of them failed.
func rssRatioOf(peak float64, singles []float64) float64 {
	if slices.ContainsFunc(singles, func(v float64) bool { return math.IsInf(v, 1) }) {
		return math.Inf(1)
	}
	return peak / median(singles)
}

// clusterReport renders the results as markdown.
func clusterReport(res *ClusterResults) string {
	var w strings.Builder
	all := "@" + strings.Join(res.Contexts, ",@")
	fmt.Fprintf(&w, "# kscope: one table over %d clusters — %s\n\n", len(res.Contexts), strings.Split(res.Started, "T")[0])
	fmt.Fprintf(&w, "Namespace %s with %d pods in each of the contexts %s (devcluster: the first cluster's pods Running "+
		"on kwok nodes; the others are API servers of their own on the same etcd, without nodes, their pods Pending). "+
		"Each round: the server's floor, then `kscope --context C -n %s pods` on each cluster alone and `kscope -n %s pods %s` "+
		"on all of them, and each alone all started at once (a process each), in an order rotated by round. Complete: a single table's title reads `pods(%s)[%d]`, not listing; "+
		"the table over all reads `pods %s(%s)[%d]` and its status line says every cluster is synced. RSS settled: 10 s "+
		"after complete; peak: VmHWM then. Floor: one whole GET of the namespace's pods as a Table without objects "+
		"(`Accept: %s`, `includeObject=None`), per cluster in turn, and to all of them at once. Medians count a failed "+
		"session as infinitely slow. A session that started above a 1-minute load of %s is marked *.\n\n",
		res.Namespace, res.Pods, strings.Join(res.Contexts, ", "), res.Namespace, res.Namespace, all,
		res.Namespace, res.Pods, all, res.Namespace, res.Pods*len(res.Contexts), tableAccept, num(res.MaxLoad))
	writeClusterMedians(&w, res)
	writeClusterTargets(&w, res)
	writeClusterRuns(&w, res)
	fmt.Fprintf(&w, "\nMachine:\n```\n")
	for _, k := range sortedKeys(res.Machine) {
		fmt.Fprintf(&w, "%s: %s\n", k, res.Machine[k])
	}
	fmt.Fprintf(&w, "```\nVersions:\n```\n")
	for _, k := range sortedKeys(res.Versions) {
		fmt.Fprintf(&w, "%s: %s\n", k, res.Versions[k])
	}
	fmt.Fprintf(&w, "```\n")
	return w.String()
}

// writeClusterMedians writes the medians of every figure, per cluster alone and over all.
func writeClusterMedians(w *strings.Builder, res *ClusterResults) {
	fmt.Fprintf(w, "| median of %d rounds | %s | all %d in one table | each alone, all at once (sum of RSS) |\n|---|", len(res.Rounds),
		strings.Join(res.Contexts, " alone | ")+" alone", len(res.Contexts))
	fmt.Fprint(w, strings.Repeat("---|", len(res.Contexts)+2)+"\n")
	figures := []struct {
		name string
		of   func(Sample) float64
	}{
		{"first screen of rows (s)", func(s Sample) float64 { return failedAsInf(s, s.FirstS) }},
		{"complete table (s)", func(s Sample) float64 { return failedAsInf(s, s.LaunchS) }},
		{"RSS settled (MB)", func(s Sample) float64 { return failedAsInf(s, s.RSSMB) }},
		{"peak RSS (MB)", func(s Sample) float64 { return failedAsInf(s, s.PeakRSSMB) }},
	}
	for _, f := range figures {
		fmt.Fprintf(w, "| %s |", f.name)
		for _, c := range res.Contexts {
			var v []float64
			for _, r := range res.Rounds {
				v = append(v, f.of(r.Single[c]))
			}
			fmt.Fprintf(w, " %s |", fig(median(v)))
		}
		var v, tv []float64
		for _, r := range res.Rounds {
			v = append(v, f.of(r.Multi))
			if ran(r.Together) {
				tv = append(tv, f.of(r.Together))
			}
		}
		fmt.Fprintf(w, " %s | %s |\n", fig(median(v)), fig(median(tv)))
	}
	fmt.Fprint(w, "| server floor: Table GET (s) |")
	for _, c := range res.Contexts {
		var v []float64
		for _, r := range res.Rounds {
			v = append(v, floorOf(r.FloorS[c]))
		}
		fmt.Fprintf(w, " %s |", fig(median(v)))
	}
	var v []float64
	for _, r := range res.Rounds {
		v = append(v, floorOf(r.FloorAllS))
	}
	fmt.Fprintf(w, " %s (all at once) | |\n\n", fig(median(v)))
}

// writeClusterTargets writes issue 33's targets, the figures against them and whether they are met.
func writeClusterTargets(w *strings.Builder, res *ClusterResults) {
	var ratios []float64
	for _, r := range res.Rounds {
		ratios = append(ratios, r.completeRatio(res.Contexts))
	}
	fmt.Fprintln(w, "| target (issue 33) | median | per round | met |\n|---|---|---|---|")
	per := make([]string, len(ratios))
	for i, v := range ratios {
		per[i] = fig(v)
	}
	m := median(ratios)
	fmt.Fprintf(w, "| complete ≤ %s× the slowest single cluster's (same round) | %s× | %s | %s |\n", num(completeTarget),
		fig(m), strings.Join(per, ", "), targetMet(m <= completeTarget, !slices.ContainsFunc(ratios, func(v float64) bool { return v > completeTarget })))
	single := median(res.singlePeaks())
	peaks := make([]string, len(res.Rounds))
	allMet := true
	for i, r := range res.Rounds {
		ratio := rssRatioOf(failedAsInf(r.Multi, r.Multi.PeakRSSMB), res.singlePeaks())
		peaks[i] = fig(ratio)
		allMet = allMet && ratio <= rssTarget
	}
	rss := res.rssRatio()
	fmt.Fprintf(w, "| peak RSS ≤ %s× a single cluster's (median of their peaks, %s MB) | %s× | %s | %s |\n\n",
		num(rssTarget), fig(single), fig(rss), strings.Join(peaks, ", "), targetMet(rss <= rssTarget, allMet))
	var fair, fairRSS []float64
	for _, r := range res.Rounds {
		if !ran(r.Together) { // (results of an earlier screenbench)
			continue
		}
		fair = append(fair, ratioOf(failedAsInf(r.Multi, r.Multi.LaunchS), failedAsInf(r.Together, r.Together.LaunchS)))
		fairRSS = append(fairRSS, ratioOf(failedAsInf(r.Multi, r.Multi.PeakRSSMB), failedAsInf(r.Together, r.Together.PeakRSSMB)))
	}
	if len(fair) > 0 {
		fmt.Fprintf(w, "On this one machine the three API servers and etcd share kscope's 2 cores: the table over all of them "+
			"makes them serve three lists at once, which each cluster alone does not. Against each cluster alone, all "+
			"started at once (the same load on the servers), the table over all completes in %s× their time (median; "+
			"per round %s) and peaks at %s× the sum of their peaks (per round %s).\n\n",
			fig(median(fair)), figs(fair), fig(median(fairRSS)), figs(fairRSS))
	}
	if busy, n := res.busySessions(); busy > 0 {
		fmt.Fprintf(w, "%d of %d sessions started above a 1-minute load of %s (marked * below): their figures may mislead.\n\n",
			busy, n, num(res.MaxLoad))
	}
}

// busySessions counts the sessions that started above the load limit, of n in all.
func (res *ClusterResults) busySessions() (busy, n int) {
	for _, r := range res.Rounds {
		sessions := append(slices.Collect(maps.Values(r.Single)), r.Multi)
		if ran(r.Together) {
			sessions = append(sessions, r.Together)
		}
		for _, s := range sessions {
			n++
			if loadOf(s.LoadAvg) > res.MaxLoad {
				busy++
			}
		}
	}
	return busy, n
}

// targetMet says whether a target is met by the median and by every round.
func targetMet(byMedian, everyRound bool) string {
	switch {
	case byMedian && everyRound:
		return "yes (every round)"
	case byMedian:
		return "by the median, not in every round"
	}
	return "no"
}

// writeClusterRuns writes every round's figures.
func writeClusterRuns(w *strings.Builder, res *ClusterResults) {
	fmt.Fprintln(w, "Rounds (first rows / complete s, RSS settled / peak MB; floor s):")
	fmt.Fprintln(w, "```")
	for _, r := range res.Rounds {
		floors := make([]string, 0, len(res.Contexts))
		for _, c := range res.Contexts {
			floors = append(floors, fmt.Sprintf("%s %s", c, fig(floorOf(r.FloorS[c]))))
		}
		fmt.Fprintf(w, "round %d  load %s  order %s  floor %s, all at once %s\n", r.Run, r.LoadAvg,
			strings.Join(r.Order, ","), strings.Join(floors, " "), fig(floorOf(r.FloorAllS)))
		for _, name := range r.Order {
			s := r.Single[name]
			switch name {
			case allClusters:
				s = r.Multi
			case together:
				s = r.Together
			}
			mark := " "
			if loadOf(s.LoadAvg) > res.MaxLoad {
				mark = "*"
			}
			fmt.Fprintf(w, " %s%-7s load %s  %s / %s s  %s / %s MB", mark, name, s.LoadAvg,
				fig(failedAsInf(s, s.FirstS)), fig(failedAsInf(s, s.LaunchS)), fig(failedAsInf(s, s.RSSMB)),
				fig(failedAsInf(s, s.PeakRSSMB)))
			if s.FirstListing {
				fmt.Fprint(w, "  (first rows while listing)")
			}
			if len(s.Errors) > 0 {
				fmt.Fprintf(w, "  errors %q", s.Errors)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "  ratio complete all / slowest alone %s\n", fig(r.completeRatio(res.Contexts)))
		for _, e := range r.FloorErrors {
			fmt.Fprintf(w, "  floor failed: %s\n", e)
		}
	}
	fmt.Fprintln(w, "```")
}

// ran tells whether a session was run (results of an earlier screenbench have no Together).
func ran(s Sample) bool { return s.LoadAvg != "" }

// ratioOf is a/b, +Inf when either failed (+Inf) or b is not positive.
func ratioOf(a, b float64) float64 {
	if math.IsInf(a, 1) || math.IsInf(b, 1) || b <= 0 {
		return math.Inf(1)
	}
	return a / b
}

// figs formats figures, comma-separated.
func figs(vs []float64) string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = fig(v)
	}
	return strings.Join(out, ", ")
}

// floorOf counts a failed floor GET (-1) as infinitely slow.
func floorOf(v float64) float64 {
	if v < 0 {
		return math.Inf(1)
	}
	return v
}

// fig formats a figure: "failed" for +Inf, "—" when there is none.
func fig(v float64) string {
	switch {
	case math.IsInf(v, 1):
		return "failed"
	case math.IsNaN(v):
		return "—"
	}
	return num(v)
}
