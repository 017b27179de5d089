package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"
)

func reportCommand(args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("out", "", "also write the markdown report to this file")
	maxLoad := fs.Float64("max-load", 1.5, "runs that started above this 1-minute load average are marked invalid (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("report: give the JSON result files")
	}
	var all []*Results
	for _, path := range fs.Args() {
		r, err := readResults(path)
		if err != nil {
			return fmt.Errorf("read %s: %w", path, err)
		}
		all = append(all, r)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].Pods < all[j].Pods })
	label(all)
	var b strings.Builder
	writeReport(&b, all, *maxLoad)
	fmt.Print(b.String())
	if *out != "" {
		return os.WriteFile(*out, []byte(b.String()), 0o644)
	}
	return nil
}

// writeReport renders the results as markdown: the side-by-side table, then the machine, the versions,
// the per-run samples and anything that went wrong.
func writeReport(w io.Writer, all []*Results, maxLoad float64) {
	fmt.Fprintf(w, "# kscope vs k9s vs kubectl — %s\n\n", strings.Split(all[0].Started, "T")[0])
	fmt.Fprintf(w, "Each figure is the median of all the runs shown in the samples below (change latencies: "+
		"percentiles of all probes pooled); a run that failed to measure a figure, or a probe never seen, counts "+
		"as infinitely slow and is shown, never dropped. A target is met only if every kscope run met it. Runs "+
		"of the tools were interleaved on the same cluster; a run that started above a 1-minute load average of "+
		"%s is marked invalid. Lower is better; a ratio below 1 means kscope is better.\n\n", num(maxLoad))
	fmt.Fprint(w, "First screen of rows: launch → the first capture showing a pod row (kubectl: its first row "+
		"printed). Complete table: the title's count is one the server reported and no longer says \"listing…\" "+
		"(kubectl: its exit; all namespaces: the cluster's pod count). Sort by another column: the key that sorts "+
		"by IP (not a flip of the current column) until the visible pods are consecutive pods of the server's IP "+
		"order.\n\n")
	fmt.Fprintln(w, "| pods | measure | kscope | k9s | kubectl | kscope/k9s | kscope/kubectl | target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range all {
		for _, m := range reportMetrics() {
			writeRow(w, r, m, maxLoad)
		}
	}
	writeBeforeTable(w, all)
	writeNotes(w, all)
	for _, r := range all {
		writeDetails(w, r, maxLoad)
	}
}

// writeBeforeTable compares kscope with the earlier binary measured in the same interleaved runs
// (--kscope-before), when one was: the same figures, and their ratio.
func writeBeforeTable(w io.Writer, all []*Results) {
	if !slices.ContainsFunc(all, func(r *Results) bool { return len(r.Runs[beforeTool]) > 0 }) {
		return
	}
	fmt.Fprintf(w, "\n## kscope against an earlier kscope, in the same interleaved runs\n\n")
	for _, r := range all {
		if len(r.Runs[beforeTool]) > 0 {
			fmt.Fprintf(w, "%s pods: kscope %s; before: %s.\n", r.label, r.Versions["kscope"], r.Versions[beforeTool])
		}
	}
	fmt.Fprintln(w, "\n| pods | measure | kscope | kscope before | kscope/before |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, r := range all {
		for _, m := range reportMetrics() {
			then := r.runsOf(m, beforeTool)
			if len(then) == 0 {
				continue
			}
			now, was := m.value(r.runsOf(m, "kscope")), m.value(then)
			if !r.attempted(m, "kscope", now) {
				continue
			}
			fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s |\n", r.label, m.name, m.unit, cellText(now, true),
				cellText(was, true), ratio(now, was))
		}
	}
}

// label names each result in the table: its pod count, and kscope's version where several results
// share a pod count (a re-run after a change).
func label(all []*Results) {
	count := map[int]int{}
	for _, r := range all {
		count[r.Pods]++
	}
	for _, r := range all {
		r.label = fmt.Sprint(r.Pods)
		if count[r.Pods] > 1 {
			v := strings.Fields(r.Versions["kscope"])
			if len(v) > 3 {
				r.label += " kscope " + v[3]
			}
		}
	}
}

// runsOf returns tool's runs that m reads: in the namespace, or in all namespaces.
func (r *Results) runsOf(m metric, tool string) []Sample {
	if m.allNS {
		return r.AllNamespaces[tool]
	}
	return r.Runs[tool]
}

// attempted tells whether tool set out to measure m: it ran, has m (kubectl has few figures), and the
// bench that wrote r measures m (results older than Figures: some run measured it).
func (r *Results) attempted(m metric, tool string, f figure) bool {
	if len(r.runsOf(m, tool)) == 0 || (tool == "kubectl" && !m.kubectl) {
		return false
	}
	if r.Figures == nil {
		return f.measured
	}
	return slices.Contains(r.Figures, m.id)
}

// writeRow prints m's row for r, unless no tool set out to measure it.
func writeRow(w io.Writer, r *Results, m metric, maxLoad float64) {
	figs, cells, shown := map[string]figure{}, map[string]string{}, false
	for _, tool := range []string{"kscope", "k9s", "kubectl"} {
		var f figure
		if runs := r.runsOf(m, tool); len(runs) > 0 {
			f = m.value(runs)
		}
		tried := r.attempted(m, tool, f)
		figs[tool], cells[tool], shown = f, cellText(f, tried), shown || tried
		if r.Skipped[tool] != "" {
			cells[tool] = "skipped"
		}
	}
	if !shown {
		return
	}
	target, met := "", ""
	if t, ok := m.targets[r.Pods]; ok {
		target, met = fmt.Sprintf("≤ %s", num(t)), metText(r, m, figs["kscope"], t, maxLoad)
	}
	ks := figs["kscope"]
	fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |\n", r.label, m.name, m.unit,
		cells["kscope"], cells["k9s"], cells["kubectl"], ratio(ks, figs["k9s"]), ratio(ks, figs["kubectl"]), target, met)
}

// metText tells whether kscope met target t: only if every run did, none started on a busy machine and,
// in all namespaces, the cluster held about as many pods as the target is for.
func metText(r *Results, m metric, ks figure, t, maxLoad float64) string {
	runs := r.runsOf(m, "kscope")
	switch _, n := clusterRange(r.AllNamespaces); {
	case invalidRuns(runs, maxLoad) > 0:
		return "invalid (load)"
	case m.allNS && n > 0 && (10*n > 11*r.Pods || 10*n < 9*r.Pods):
		return fmt.Sprintf("n/a (%d pods in the cluster)", n)
	case ks.measured && ks.worst <= t:
		return "yes"
	}
	return "no"
}

// cellText prints a figure, with its failures: "1.83", "2.10 (1/3 failed)", "failed (3/3)"; "—" when the
// tool did not set out to measure it.
func cellText(f figure, attempted bool) string {
	switch {
	case !attempted:
		return "—"
	case !f.measured || math.IsInf(f.v, 1):
		return fmt.Sprintf("failed (%d/%d)", f.failed, f.of)
	case f.failed > 0:
		return fmt.Sprintf("%s (%d/%d failed)", num(f.v), f.failed, f.of)
	}
	return num(f.v)
}

// invalidRuns counts the runs that started above maxLoad (0: no limit).
func invalidRuns(runs []Sample, maxLoad float64) int {
	n := 0
	for _, s := range runs {
		if maxLoad > 0 && loadOf(s.LoadAvg) > maxLoad {
			n++
		}
	}
	return n
}

func writeDetails(w io.Writer, r *Results, maxLoad float64) {
	fmt.Fprintf(w, "\n## %d pods (namespace %s), %s → %s\n\n", r.Pods, r.Namespace, r.Started, r.Finished)
	fmt.Fprintln(w, "Machine:")
	fmt.Fprintln(w, "```")
	for _, k := range sortedKeys(r.Machine) {
		fmt.Fprintf(w, "%s: %s\n", k, r.Machine[k])
	}
	fmt.Fprintln(w, "```")
	fmt.Fprintln(w, "Versions:")
	fmt.Fprintln(w, "```")
	for _, k := range sortedKeys(r.Versions) {
		fmt.Fprintf(w, "%s: %s\n", k, strings.ReplaceAll(r.Versions[k], "\n", " | "))
	}
	fmt.Fprintln(w, "```")
	fmt.Fprintln(w, "Samples (one line per run; -A: the launch in all namespaces):")
	fmt.Fprintln(w, "```")
	writeSamples(w, r.Runs, "", maxLoad)
	writeSamples(w, r.AllNamespaces, " -A", maxLoad)
	fmt.Fprintln(w, "```")
	if len(r.Profiles) > 0 {
		fmt.Fprintf(w, "Profiles of an extra kscope run: %s\n", strings.Join(r.Profiles, ", "))
	}
}

// writeSamples prints one line per run of each tool, marked invalid if it started on a busy machine.
func writeSamples(w io.Writer, runs map[string][]Sample, suffix string, maxLoad float64) {
	for _, tool := range sortedKeys(runs) {
		for i, s := range runs[tool] {
			mark := ""
			if invalidRuns([]Sample{s}, maxLoad) > 0 {
				mark = " INVALID (load above " + num(maxLoad) + ")"
			}
			fmt.Fprintf(w, "%-10s run %d  load %-14s %s%s\n", tool+suffix, i+1, s.LoadAvg, summary(s), mark)
		}
	}
}

// writeNotes says, under the table, which tools were skipped at a size and why, how often kscope's first
// screen of rows said the list was still arriving, and how many pods the cluster held in all namespaces.
func writeNotes(w io.Writer, all []*Results) {
	var notes []string
	for _, r := range all {
		for _, tool := range sortedKeys(r.Skipped) {
			notes = append(notes, fmt.Sprintf("%s pods: %s %s.", r.label, tool, r.Skipped[tool]))
		}
		if n, of := listingRuns(r.Runs["kscope"]); of > 0 {
			note := fmt.Sprintf("%s pods: kscope's first screen of rows said the list was still arriving "+
				"(\"listing N of M…\") in %d of %d runs", r.label, n, of)
			if n, of := listingRuns(r.AllNamespaces["kscope"]); of > 0 {
				note += fmt.Sprintf(" (all namespaces: %d of %d)", n, of)
			}
			notes = append(notes, note+".")
		}
		if lo, hi := clusterRange(r.AllNamespaces); hi > 0 {
			notes = append(notes, fmt.Sprintf("%s pods, all namespaces: the cluster held %s pods.", r.label, span(lo, hi)))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(w)
	}
	for _, n := range notes {
		fmt.Fprintf(w, "- %s\n", n)
	}
}

// listingRuns counts the runs whose first screen of rows said "listing…", of those that showed rows.
func listingRuns(runs []Sample) (n, of int) {
	for _, s := range runs {
		if s.FirstS > 0 {
			of++
			if s.FirstListing {
				n++
			}
		}
	}
	return n, of
}

// clusterRange is the least and most cluster pod counts the all-namespaces runs recorded (0: none).
func clusterRange(runs map[string][]Sample) (lo, hi int) {
	for _, ss := range runs {
		for _, s := range ss {
			if n := s.ClusterPods; n > 0 {
				if lo == 0 || n < lo {
					lo = n
				}
				hi = max(hi, n)
			}
		}
	}
	return lo, hi
}

// span prints a count or a range of counts.
func span(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d–%d", lo, hi)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// num prints a figure with sensible precision; a negative one (not measured) prints as a dash.
func num(v float64) string {
	switch {
	case v < 0:
		return "—"
	case v == 0:
		return "0"
	case v >= 1000:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// ratio is a/b for two measured, finite figures; else a dash.
func ratio(a, b figure) string {
	if !a.measured || !b.measured || math.IsInf(a.v, 1) || math.IsInf(b.v, 1) || b.v <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", a.v/b.v)
}
