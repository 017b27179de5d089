package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

// renderHelmReport writes the markdown report of the helm results in path to report (stdout if empty).
func renderHelmReport(path, report string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var res HelmResults
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if report == "" {
		fmt.Print(helmReport(&res))
		return nil
	}
	return os.WriteFile(report, []byte(helmReport(&res)), 0o644)
}

// helmMedian is the median of get over samples; with timed, a run that failed (no complete time) counts as
// +Inf, and otherwise its figure is left out. NaN when nothing is left.
func helmMedian(samples []HelmSample, get func(HelmSample) float64, timed bool) float64 {
	var v []float64
	for _, s := range samples {
		switch {
		case s.CompleteS > 0:
			v = append(v, get(s))
		case timed:
			v = append(v, math.Inf(1))
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return medianAll(v)
}

// helmMedianSeen is the median of get over every sample, failed or not, where it is positive (a milestone a
// failed run reached before it failed counts); NaN when none.
func helmMedianSeen(samples []HelmSample, get func(HelmSample) float64) float64 {
	var v []float64
	for _, s := range samples {
		if x := get(s); x > 0 {
			v = append(v, x)
		}
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return medianAll(v)
}

// helmMedianAll is the median of get over every sample, zeros included; NaN when there are none.
func helmMedianAll(samples []HelmSample, get func(HelmSample) float64) float64 {
	var v []float64
	for _, s := range samples {
		v = append(v, get(s))
	}
	if len(v) == 0 {
		return math.NaN()
	}
	return medianAll(v)
}

// helmSampleRate is the charts kscope read a second in s: from its capture with the most left to its last
// capture that said how many (exact). A sample without those times (an earlier screenbench's) gives a lower
// bound: the same count over the time from all releases counted to complete (or the limit, when it failed).
// 0 when nothing was read.
func helmSampleRate(s HelmSample, limitS float64) (rate float64, exact bool) {
	if s.LastAtS > s.MostAtS {
		return helmReadRate(s.MostLeft, s.LastLeft, secondsOf(s.MostAtS), secondsOf(s.LastAtS)), true
	}
	end := s.CompleteS
	if end == 0 {
		end = limitS
	}
	if s.MostLeft <= s.LastLeft || end <= s.CountS {
		return 0, false
	}
	return float64(s.MostLeft-s.LastLeft) / (end - s.CountS), false
}

// helmRateText is s's read rate, "≥" before a lower bound, "–" when nothing was read.
func helmRateText(s HelmSample, limitS float64) string {
	r, exact := helmSampleRate(s, limitS)
	switch {
	case r == 0:
		return "–"
	case exact:
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("≥ %.1f", r)
}

// helmRatesText is the median read rate of the samples that read charts, "≥" before it when any is a lower
// bound.
func helmRatesText(samples []HelmSample, limitS float64) string {
	var v []float64
	bound := ""
	for _, s := range samples {
		if r, exact := helmSampleRate(s, limitS); r > 0 {
			v = append(v, r)
			if !exact {
				bound = "≥ "
			}
		}
	}
	if len(v) == 0 {
		return "–"
	}
	return fmt.Sprintf("%s%.1f", bound, medianAll(v))
}

// helmSamples is the samples of tool name, in round order.
func helmSamples(res *HelmResults, name string) []HelmSample {
	var out []HelmSample
	for _, r := range res.Rounds {
		if s, ok := r.Tools[name]; ok {
			out = append(out, s)
		}
	}
	return out
}

// helmGoal says whether kscope's median complete time meets the goal: at most 0.5 s, and at most a
// tenth of k9s's (a k9s that never completed is infinitely slow; without k9s only the first half counts).
func helmGoal(kscope, k9s float64) (met bool, why string) {
	var missed []string
	switch {
	case math.IsInf(kscope, 1) || math.IsNaN(kscope):
		missed = append(missed, "kscope's view was never complete within the limit in most runs")
	case kscope > 0.5:
		missed = append(missed, fmt.Sprintf("kscope's complete %s is above 0.5 s", seconds(kscope)))
	}
	if !math.IsNaN(k9s) && !math.IsInf(kscope, 1) && !(kscope*10 <= k9s) {
		missed = append(missed, fmt.Sprintf("kscope's complete %s is more than a tenth of k9s's %s", seconds(kscope), seconds(k9s)))
	}
	if len(missed) == 0 {
		return true, "met: kscope complete ≤ 0.5 s and ≤ 1/10 of k9s's time"
	}
	return false, "missed: " + strings.Join(missed, "; ")
}

// helmReport is the markdown report of one helm bench: each tool's medians (a failed run counts as
// infinitely slow), kscope's ratios and the goal, where kscope's time goes, then every run.
func helmReport(res *HelmResults) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# Helm releases at scale: %d releases × %d revisions — %s\n\n", res.Releases, res.Revisions, strings.SplitN(res.Started, "T", 2)[0])
	fmt.Fprintf(&w, "`screenbench helm` (bench/helm.sh): namespace %s holds %d releases × %d revisions (%d release Secrets) "+
		"written by Helm's own SDK (bench/cmd/helmload", res.Namespace, res.Releases, res.Revisions, res.Releases*res.Revisions)
	if res.LoadS > 0 {
		fmt.Fprintf(&w, ", in %.1f s", res.LoadS)
	}
	fmt.Fprintf(&w, "). %d interleaved rounds, the order rotated by round, after one unmeasured launch of each TUI. "+
		"**sdk-list**: `helmload --list`, Helm's list action as `helm list -n NS` runs it (Secrets driver, deployed and "+
		"failed), complete = `List.Run()`'s time, beside its configuration's set-up and the whole process. "+
		"**kscope**: `kscope -n NS helm`; **k9s**: `k9s -n NS -c helm`, each in a private tmux (160×50), its screen polled. "+
		"Frame: launch → the view's title; first row: → a release row; count: → the title counting %d; complete: that "+
		"count, every visible row showing its latest chart (release-NNNN-%s) and no \"%s\" on kscope's status line. "+
		"A launch not complete within %.0f s failed and counts as infinitely slow in the medians. RSS: 10 s after complete; "+
		"peak: VmHWM (sdk-list: the process's maxrss).\n\n", res.Runs, res.Releases, helmChartVersion(res.Revisions), helmReading, res.LimitS)
	fmt.Fprintf(&w, "Machine: %s, %s cores; load average at start %s, at end %s. Started %s, finished %s.\n\n",
		res.Machine["cpu"], res.Machine["nproc"], res.Machine["loadavg_start"], res.Machine["loadavg_end"], res.Started, res.Finished)
	fmt.Fprintf(&w, "Versions: kscope %s; k9s %s; kube-apiserver %s.\n\n", firstLine(res.Versions["kscope"]), res.Versions["k9s"], res.Versions["kube-apiserver"])
	w.WriteString("## Medians\n\nComplete: a failed run counts as infinitely slow. The other columns: the median over the runs " +
		"that reached or measured them, failed ones included (a failed TUI's peak RSS is read when it is given up).\n\n| tool | complete (median) | runs | frame | first row | count | RSS settled | peak RSS |\n|---|---|---|---|---|---|---|---|\n")
	med := map[string]float64{}
	for _, name := range []string{helmSDK, helmKscope, helmK9s} {
		ss := helmSamples(res, name)
		if len(ss) == 0 {
			med[name] = math.NaN()
			continue
		}
		med[name] = helmMedian(ss, func(s HelmSample) float64 { return s.CompleteS }, true)
		get := func(f func(HelmSample) float64) float64 { return helmMedianSeen(ss, f) }
		fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n", name, seconds(med[name]), helmRunsList(ss),
			seconds(get(func(s HelmSample) float64 { return s.FrameS })), seconds(get(func(s HelmSample) float64 { return s.FirstS })),
			seconds(get(func(s HelmSample) float64 { return s.CountS })), mb(get(func(s HelmSample) float64 { return s.RSSMB })),
			mb(get(func(s HelmSample) float64 { return s.PeakRSSMB })))
	}
	if sdk := helmSamples(res, helmSDK); len(sdk) > 0 {
		fmt.Fprintf(&w, "\nsdk-list's configuration set-up (median) %s, its whole process %s.\n",
			helmSecs(helmMedianAll(sdk, func(s HelmSample) float64 { return s.InitS })),
			helmSecs(helmMedianAll(sdk, func(s HelmSample) float64 { return s.ProcessS })))
	}
	k := med[helmKscope]
	w.WriteString("\n## kscope against the goal\n\n")
	fmt.Fprintf(&w, "- kscope / k9s: %s; kscope / sdk-list: %s.\n", helmRatio(k, med[helmK9s]), helmRatio(k, med[helmSDK]))
	_, why := helmGoal(k, med[helmK9s])
	fmt.Fprintf(&w, "- Goal (complete ≤ 0.5 s and ≤ 1/10 of k9s's time): %s.\n", why)
	if ks := helmSamples(res, helmKscope); len(ks) > 0 {
		frame, first := helmMedianSeen(ks, func(s HelmSample) float64 { return s.FrameS }), helmMedianSeen(ks, func(s HelmSample) float64 { return s.FirstS })
		counted := helmMedianSeen(ks, func(s HelmSample) float64 { return s.CountS })
		fmt.Fprintf(&w, "- Where kscope's time goes (medians over every run, from the screens): start-up to its first frame %s; "+
			"first rows at %s; all %d counted in the title at %s; complete (every chart read) %s.\n",
			helmSecs(frame), helmSecs(first), res.Releases, helmSecs(counted), seconds(k))
		fmt.Fprintf(&w, "- Reading the charts (kscope's status line, \"%s: N left\"): at most %s left (median of the runs' most), "+
			"read at %s charts/s (median; from the capture that said the most were left to the last that said how many), "+
			"still %s left when a run ended (median).\n", helmReading,
			count(helmMedianSeen(ks, func(s HelmSample) float64 { return float64(s.MostLeft) })),
			helmRatesText(ks, res.LimitS),
			count(helmMedianAll(ks, func(s HelmSample) float64 { return float64(s.LastLeft) })))
	}
	if res.Profile != "" {
		w.WriteString("- kscope's CPU profile of one more launch (not in the medians; quit 10 s after complete, or at the limit): its top is in " +
			"the -profile.txt beside this report.\n")
	}
	w.WriteString("\n## Every run\n\n| round | tool | complete | frame | first | count | charts left (most → last) | charts read/s | RSS | peak | load start | load end | errors |\n")
	w.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range res.Rounds {
		for _, name := range r.Order {
			s := r.Tools[name]
			fmt.Fprintf(&w, "| %d | %s | %s | %s | %s | %s | %d → %d | %s | %s | %s | %s | %s | %s |\n", r.Run, name, seconds(s.CompleteS),
				seconds(s.FrameS), seconds(s.FirstS), seconds(s.CountS), s.MostLeft, s.LastLeft, helmRateText(s, res.LimitS), mb(s.RSSMB), mb(s.PeakRSSMB),
				s.LoadStart, s.LoadEnd, strings.Join(s.Errors, "; "))
		}
	}
	return w.String()
}

// helmRunsList is every run's complete time, in round order (✗ for a failed run).
func helmRunsList(samples []HelmSample) string {
	var parts []string
	for _, s := range samples {
		if s.CompleteS > 0 {
			parts = append(parts, fmt.Sprintf("%.2f", s.CompleteS))
		} else {
			parts = append(parts, "✗")
		}
	}
	return strings.Join(parts, ", ")
}

// helmRatio is a / b as "N.NN×", or "–" when either is unknown or infinite.
func helmRatio(a, b float64) string {
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f×", a/b)
}

// helmSecs is v seconds, "–" when unknown.
func helmSecs(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.2f s", v)
}

func mb(v float64) string {
	if math.IsNaN(v) || v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f MB", v)
}

func firstLine(s string) string { return strings.SplitN(s, "\n", 2)[0] }
