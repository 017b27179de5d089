package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

// renderFarReport writes the markdown report of the far results in path to report (stdout if empty).
func renderFarReport(path, report string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var res FarResults
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if report == "" {
		fmt.Print(farReport(&res))
		return nil
	}
	return os.WriteFile(report, []byte(farReport(&res)), 0o644)
}

// farToolOrder is the order of the report's rows.
var farToolOrder = []string{farFloor, "kscope", "k9s", farKubectl}

// farReport is the markdown report of one far bench: per round-trip time, each tool's medians (a failed
// run counts as infinitely slow), kscope's distance from the floor in round trips, then every run.
func farReport(res *FarResults) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# Far link: %d pods, %s each way — %s\n\n", res.Pods, res.Rate, strings.SplitN(res.Started, "T", 2)[0])
	fmt.Fprintf(&w, "`screenbench far` (bench/far.sh): each tool launched on namespace %s through kscope's far-link proxy "+
		"(bench/cmd/farlink: half the round trip as delay each way, the bandwidth capped each way), discovery cached "+
		"(one unmeasured launch of each tool first), %d interleaved rounds per round trip, the order rotated by round. "+
		"The floor is one gzip GET of the pods as a Table without objects by curl, its connection set up through the "+
		"same link. Complete: launch → the whole table on screen (kubectl: its exit; the floor: curl's total). Bytes: "+
		"what crossed the link by then, each way. Connections: opened through the link by the launch until it quit "+
		"(TUIs: 3 s after complete). Requests: the server's audit log's requests of the tools' user in that window.\n\n",
		res.Namespace, res.Runs)
	fmt.Fprintf(&w, "Machine: %s; load average at start %s, at end %s. Started %s, finished %s.\n\n",
		res.Machine["cpu"], res.Machine["loadavg_start"], res.Machine["loadavg_end"], res.Started, res.Finished)
	for _, rtt := range res.RTTsMS {
		rounds := roundsAt(res, rtt)
		fmt.Fprintf(&w, "## RTT %d ms\n\n", rtt)
		w.WriteString("| tool | complete (median) | runs | first rows | bytes down | per pod | bytes up | connections | requests |\n")
		w.WriteString("|---|---|---|---|---|---|---|---|---|\n")
		floor := math.NaN()
		for _, name := range farToolOrder {
			samples := samplesOf(rounds, name)
			if len(samples) == 0 {
				continue
			}
			complete := farMedian(samples, func(s FarSample) float64 { return s.CompleteS }, true)
			if name == farFloor {
				floor = complete
			}
			down := farMedian(samples, func(s FarSample) float64 { return float64(s.BytesDown) }, false)
			fmt.Fprintf(&w, "| %s | %s | %s | %s | %s | %.0f B | %s | %s | %s |\n", name, seconds(complete),
				runsList(samples), seconds(farMedian(samples, func(s FarSample) float64 { return s.FirstS }, false)),
				kb(down), down/float64(max(res.Pods, 1)),
				kb(farMedian(samples, func(s FarSample) float64 { return float64(s.BytesUp) }, false)),
				count(farMedian(samples, func(s FarSample) float64 { return float64(s.Connections) }, false)),
				count(farMedian(samples, func(s FarSample) float64 { return float64(s.Requests) }, false)))
		}
		if ks := samplesOf(rounds, "kscope"); len(ks) > 0 && !math.IsNaN(floor) {
			k := farMedian(ks, func(s FarSample) float64 { return s.CompleteS }, true)
			fmt.Fprintf(&w, "\nkscope complete − floor: %s", seconds(k-floor))
			if rtt > 0 {
				fmt.Fprintf(&w, " = %.1f round trips (target ≤ 1)", (k-floor)*1000/float64(rtt))
			}
			fmt.Fprintf(&w, "; kscope / floor: %.2f×.\n", k/floor)
		}
		w.WriteString("\n")
	}
	w.WriteString("## Every run\n\n| RTT | round | tool | complete | first | down | up | conns | requests | load | errors |\n")
	w.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range res.Rounds {
		for _, name := range r.Order {
			s := r.Tools[name]
			fmt.Fprintf(&w, "| %d | %d | %s | %s | %s | %d | %d | %d | %d | %s | %s |\n", r.RTTMS, r.Run, name,
				seconds(s.CompleteS), seconds(s.FirstS), s.BytesDown, s.BytesUp, s.Connections, s.Requests,
				strings.SplitN(s.LoadAvg, " ", 2)[0], strings.Join(s.Errors, "; "))
		}
	}
	return w.String()
}

// roundsAt is the rounds measured at rtt ms.
func roundsAt(res *FarResults, rtt int) []FarRound {
	var out []FarRound
	for _, r := range res.Rounds {
		if r.RTTMS == rtt {
			out = append(out, r)
		}
	}
	return out
}

// samplesOf is the samples of tool name in rounds.
func samplesOf(rounds []FarRound, name string) []FarSample {
	var out []FarSample
	for _, r := range rounds {
		if s, ok := r.Tools[name]; ok {
			out = append(out, s)
		}
	}
	return out
}

// farMedian is the median of get over samples; with timed, a run that failed (no complete time) counts as
// +Inf, and otherwise its figure is left out.
func farMedian(samples []FarSample, get func(FarSample) float64, timed bool) float64 {
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

// runsList is every run's complete time, in round order (✗ for a failed run).
func runsList(samples []FarSample) string {
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

func seconds(v float64) string {
	switch {
	case math.IsNaN(v) || v == 0:
		return "–"
	case math.IsInf(v, 1):
		return "failed"
	}
	return fmt.Sprintf("%.2f s", v)
}

func kb(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.0f kB", v/1000)
}

func count(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%g", v)
}
