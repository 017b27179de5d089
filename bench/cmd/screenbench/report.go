package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// metric is one row of the report: how to read it from a sample, its unit and kscope's target per size.
type metric struct {
	name    string
	unit    string
	value   func(runs []Sample) float64
	targets map[int]float64 // pods → the most kscope may show; absent: no target
}

// medianOf is the median of a figure over the runs that measured it (a positive value); -1 if none did.
func medianOf(get func(Sample) float64) func([]Sample) float64 {
	return func(runs []Sample) float64 {
		var v []float64
		for _, s := range runs {
			if x := get(s); x > 0 {
				v = append(v, x)
			}
		}
		return medianAll(v)
	}
}

// cpuMedian is the median of a CPU figure over the runs that got as far as measuring it: 0 % is a real
// reading there (a process that used no CPU tick in the window).
func cpuMedian(get func(Sample) float64) func([]Sample) float64 {
	return func(runs []Sample) float64 {
		var v []float64
		for _, s := range runs {
			if s.RSSMB > 0 { // past launch and settling: the CPU phases ran
				v = append(v, get(s))
			}
		}
		return medianAll(v)
	}
}

func changePercentile(p float64, fromRequest bool) func([]Sample) float64 {
	return func(runs []Sample) float64 {
		var all []float64
		for _, s := range runs {
			if fromRequest {
				all = append(all, s.ChangeSentMS...)
			} else {
				all = append(all, s.ChangeMS...)
			}
		}
		if len(all) == 0 {
			return -1
		}
		return percentile(all, p)
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
	writeReport(&b, all)
	fmt.Print(b.String())
	if *out != "" {
		return os.WriteFile(*out, []byte(b.String()), 0o644)
	}
	return nil
}

// writeReport renders the results as markdown: the side-by-side table, then the machine, the versions,
// the per-run samples and anything that went wrong.
func writeReport(w io.Writer, all []*Results) {
	fmt.Fprintf(w, "# kscope vs k9s vs kubectl — %s\n\n", strings.Split(all[0].Started, "T")[0])
	fmt.Fprintf(w, "Each figure is the median of the runs shown in the samples below (change latencies: percentiles "+
		"of all probes pooled); runs of the tools were interleaved on the same cluster. Lower is better; a ratio "+
		"below 1 means kscope is better.\n\n")
	fmt.Fprintln(w, "| pods | measure | kscope | k9s | kubectl | kscope/k9s | kscope/kubectl | target | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range all {
		for _, m := range metrics {
			writeRow(w, r, m)
		}
	}
	for _, r := range all {
		writeDetails(w, r)
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

func writeRow(w io.Writer, r *Results, m metric) {
	val := func(tool string) float64 {
		runs := r.Runs[tool]
		if len(runs) == 0 {
			return -1
		}
		return m.value(runs)
	}
	ks, k9, kc := val("kscope"), val("k9s"), val("kubectl")
	if ks < 0 && k9 < 0 && kc < 0 {
		return
	}
	target, met := "", ""
	if t, ok := m.targets[r.Pods]; ok {
		target = fmt.Sprintf("≤ %s", num(t))
		met = "no"
		if ks >= 0 && ks <= t {
			met = "yes"
		}
	}
	fmt.Fprintf(w, "| %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s |\n", r.label, m.name, m.unit,
		num(ks), num(k9), num(kc), ratio(ks, k9), ratio(ks, kc), target, met)
}

func writeDetails(w io.Writer, r *Results) {
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
			fmt.Fprintf(w, "%-7s run %d  load %-14s %s\n", tool, i+1, s.LoadAvg, summary(s))
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

func ratio(a, b float64) string {
	if a < 0 || b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f", a/b)
}
