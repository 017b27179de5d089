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

// metric is one row of the report: how to read it from a tool's runs, its unit and kscope's target per size.
type metric struct {
	name    string
	unit    string
	value   func(runs []Sample) figure
	targets map[int]float64 // pods → the most kscope may show; absent: no target
}

// figure is a metric over the runs of one tool: the median (or percentile), with the runs that failed to
// measure it counted as infinitely slow, never dropped.
type figure struct {
	v        float64 // math.Inf(1) when the failures decide it
	worst    float64 // the worst run (Inf if one failed): a target is met only if every run met it
	failed   int     // runs (or, for latencies, probes) that failed to measure it
	of       int     // runs (probes) in all
	measured bool    // some run measured it (false: the tool does not have it, e.g. kubectl's filter)
}

// medianOf is the median of a figure over every run; a run that did not measure it (0) counts as failed.
func medianOf(get func(Sample) float64) func([]Sample) figure {
	return func(runs []Sample) figure {
		var v []float64
		f := figure{of: len(runs)}
		for _, s := range runs {
			x := get(s)
			if x <= 0 {
				x = math.Inf(1)
				f.failed++
			} else {
				f.measured = true
			}
			v = append(v, x)
		}
		f.v, f.worst = medianAll(v), slices.Max(append(v, 0))
		return f
	}
}

// cpuMedian is the median of a CPU figure over the runs: 0 % is a real reading (no CPU tick in the window)
// for a run that got as far as the CPU phases (RSS measured); a run that did not is failed.
func cpuMedian(get func(Sample) float64) func([]Sample) figure {
	return func(runs []Sample) figure {
		var v []float64
		f := figure{of: len(runs)}
		for _, s := range runs {
			x := get(s)
			if s.RSSMB > 0 {
				f.measured = true
			} else {
				x = math.Inf(1)
				f.failed++
			}
			v = append(v, x)
		}
		f.v, f.worst = medianAll(v), slices.Max(append(v, 0))
		return f
	}
}

// changePercentile pools every probe of every run; a probe never seen on screen counts as infinitely late.
func changePercentile(p float64, fromRequest bool) func([]Sample) figure {
	return func(runs []Sample) figure {
		var all []float64
		f := figure{}
		for _, s := range runs {
			if fromRequest {
				all = append(all, s.ChangeSentMS...)
			} else {
				all = append(all, s.ChangeMS...)
			}
			for range s.ChangeMisses {
				all = append(all, math.Inf(1))
			}
			f.failed += s.ChangeMisses
		}
		f.of, f.measured = len(all), len(all) > f.failed
		if len(all) > 0 {
			f.v = percentile(all, p)
			f.worst = f.v
		}
		return f
	}
}

var metrics = []metric{
	{"launch → complete table", "s", medianOf(func(s Sample) float64 { return s.LaunchS }), map[int]float64{10000: 0.8, 50000: 2.5}},
	{"RSS after 10 s settled", "MB", medianOf(func(s Sample) float64 { return s.RSSMB }), map[int]float64{10000: 80, 50000: 300}},
	{"peak RSS", "MB", medianOf(func(s Sample) float64 { return s.PeakRSSMB }), nil},
	{"idle CPU (20 s)", "% core", cpuMedian(func(s Sample) float64 { return s.IdleCPU }), map[int]float64{10000: 1, 50000: 2}},
	{"CPU at 200 patches/s (20 s)", "% core", cpuMedian(func(s Sample) float64 { return s.ChurnCPU }), map[int]float64{10000: 10, 50000: 15}},
	{"patch rate achieved", "/s", medianOf(func(s Sample) float64 { return s.ChurnRate }), nil},
	{"filter: `/`+name+Enter sent at once → one row", "ms", medianOf(func(s Sample) float64 { return s.FilterBurstMS }), map[int]float64{10000: 50, 50000: 100}},
	{"filter: last key of name + Enter → one row", "ms", medianOf(func(s Sample) float64 { return s.FilterMS }), map[int]float64{10000: 50, 50000: 100}},
	{"sort key → order flipped", "ms", medianOf(func(s Sample) float64 { return s.SortMS }), map[int]float64{10000: 50, 50000: 100}},
	{"change → screen p50, from patch response (under churn)", "ms", changePercentile(0.50, false), nil},
	{"change → screen p99, from patch response (under churn)", "ms", changePercentile(0.99, false), nil},
	{"change → screen p50, from patch request (under churn)", "ms", changePercentile(0.50, true), nil},
	{"change → screen p99, from patch request (under churn)", "ms", changePercentile(0.99, true), nil},
}

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
	fmt.Fprintln(w, "| pods | measure | kscope | k9s | kubectl | kscope/k9s | kscope/kubectl | target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range all {
		for _, m := range metrics {
			writeRow(w, r, m, maxLoad)
		}
	}
	for _, r := range all {
		writeDetails(w, r, maxLoad)
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

func writeRow(w io.Writer, r *Results, m metric, maxLoad float64) {
	val := func(tool string) figure {
		runs := r.Runs[tool]
		if len(runs) == 0 {
			return figure{}
		}
		return m.value(runs)
	}
	ks, k9, kc := val("kscope"), val("k9s"), val("kubectl")
	if !ks.measured && !k9.measured && !kc.measured {
		return
	}
	target, met := "", ""
	if t, ok := m.targets[r.Pods]; ok {
		target = fmt.Sprintf("≤ %s", num(t))
		met = "no"
		switch {
		case invalidRuns(r.Runs["kscope"], maxLoad) > 0:
			met = "invalid (load)"
		case ks.measured && ks.worst <= t:
			met = "yes"
		}
	}
	fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |\n", r.label, m.name, m.unit,
		cell(ks), cell(k9), cell(kc), ratio(ks, k9), ratio(ks, kc), target, met)
}

// cell prints a figure, with its failures: "1.83", "2.10 (1/3 failed)", "failed (2/3)", "—" (not measured).
func cell(f figure) string {
	switch {
	case !f.measured:
		return "—"
	case math.IsInf(f.v, 1):
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
	fmt.Fprintln(w, "Samples (one line per run):")
	fmt.Fprintln(w, "```")
	for _, tool := range sortedKeys(r.Runs) {
		for i, s := range r.Runs[tool] {
			mark := ""
			if invalidRuns([]Sample{s}, maxLoad) > 0 {
				mark = " INVALID (load above " + num(maxLoad) + ")"
			}
			fmt.Fprintf(w, "%-7s run %d  load %-14s %s%s\n", tool, i+1, s.LoadAvg, summary(s), mark)
		}
	}
	fmt.Fprintln(w, "```")
	if len(r.Profiles) > 0 {
		fmt.Fprintf(w, "Profiles of an extra kscope run: %s\n", strings.Join(r.Profiles, ", "))
	}
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
