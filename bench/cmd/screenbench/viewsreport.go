package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

// Issue 34's targets.
const (
	floorTarget      = 1.5 // the pods table complete within this many times the server's own list, same state and round
	firstTarget      = 0.3 // s, launch → the first screen of rows
	peakTarget       = 120 // MB, the pods table's peak RSS
	healthTarget     = 3   // s, shift-h → the HEALTH column filled
	healthGrowTarget = 40  // MB, the RSS the HEALTH column adds
	treeTarget       = 2   // s, t → the tree complete
	customTarget     = 3   // s, launch → the custom columns complete
	customPeakTarget = 200 // MB
	allTarget        = 2   // s, launch → the table of the "all" category complete
)

// renderViewReport writes (or prints) the report of the results file from.
func renderViewReport(from, out string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	var res ViewResults
	if err := json.Unmarshal(data, &res); err != nil {
		return fmt.Errorf("read %s: %w", from, err)
	}
	if res.Bench != "views" {
		return fmt.Errorf("%s is not the results of `screenbench views`", from)
	}
	if out == "" {
		fmt.Print(viewReport(&res))
		return nil
	}
	return os.WriteFile(out, []byte(viewReport(&res)), 0o644)
}

// viewRow is one figure of the report: its value in each round (+Inf: failed, NaN: not run) and its target
// (0: none; every round must meet it).
type viewRow struct {
	name   string
	values []float64
	target float64
	unit   string
}

// viewReport is the markdown report of res.
func viewReport(res *ViewResults) string {
	var w strings.Builder
	fmt.Fprintf(&w, "# kscope's views at %d pods against the server's own list — %s\n\n", res.Pods, day(res.Started))
	fmt.Fprintf(&w, "`screenbench views` on the devcluster, namespace %s (%d pods), %d rounds; each round measures "+
		"the pods table in every server state, then each view, in an order rotated by round. Each figure is the "+
		"median of all rounds, a failed measure counted as infinitely slow; a target is met only if every round met "+
		"it. A measure that started above a 1-minute load average of %.2f is marked with its load below.\n\n",
		res.Namespace, res.Pods, len(res.Rounds), res.MaxLoad)
	fmt.Fprintln(&w, "- **floor**: one whole GET of the pods as a Table without objects (`includeObject=None`, no "+
		"paging), request to last byte, by the bench itself, in the same state, just before kscope's launch.")
	fmt.Fprintln(&w, "- **floor of rows and metadata** (all namespaces): a Table's rows without objects carry no "+
		"namespace, so a table of several namespaces also needs the objects' metadata; kscope asks for both at once "+
		"(the metadata in protobuf). This floor is those two whole GETs sent at once, until the later one's last byte.")
	fmt.Fprintln(&w, "- **states**: *settled* (as the pods were left), *compacted* (etcd compacted to its current "+
		"revision just before), *restarted* (the API server killed and started again just before, measured as "+
		"soon as `/readyz` says ok: its watch cache is empty). The state is made again before the floor and "+
		"before kscope's launch.")
	fmt.Fprintln(&w, "- **complete**: the title's count one the server reported and no longer \"listing…\"; "+
		"**first**: the first screen showing a pod row.")
	fmt.Fprintln(&w)
	fmt.Fprintln(&w, "| figure | median | rounds | target | met |")
	fmt.Fprintln(&w, "|---|---|---|---|---|")
	for _, row := range viewRows(res) {
		med, met := median(row.values), "yes"
		if len(row.values) == 0 {
			continue
		}
		for _, v := range row.values {
			if row.target > 0 && !(v <= row.target) {
				met = "no"
			}
		}
		target := "—"
		if row.target > 0 {
			target = "≤ " + num(row.target) + row.unit
		} else {
			met = ""
		}
		fmt.Fprintf(&w, "| %s | %s%s | %s | %s | %s |\n", row.name, fig(med), unitOf(med, row.unit), figs(row.values), target, met)
	}
	writeViewRounds(&w, res)
	return w.String()
}

// unitOf is unit after a figure that is not failed or absent.
func unitOf(v float64, unit string) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return ""
	}
	return unit
}

// day is the date of an RFC 3339 time.
func day(t string) string {
	if len(t) >= 10 {
		return t[:10]
	}
	return t
}

// viewRows are the report's figures, round by round.
func viewRows(res *ViewResults) []viewRow {
	var rows []viewRow
	for _, st := range []string{stateSettled, stateCompacted, stateRestarted} {
		for _, all := range []bool{false, true} {
			rows = append(rows, stateRows(res, st, all)...)
		}
	}
	return append(rows, viewFigures(res)...)
}

// stateRows are the pods table's figures in state st (in the namespace, or in all namespaces).
func stateRows(res *ViewResults, st string, all bool) []viewRow {
	where := "namespace"
	if all {
		where = "all namespaces"
	}
	name := func(what string) string { return fmt.Sprintf("%s, %s: %s", st, where, what) }
	floor, complete, ratio := viewRow{name: name("floor"), unit: " s"}, viewRow{name: name("kscope complete"), unit: " s"},
		viewRow{name: name("kscope complete / floor"), target: floorTarget, unit: "×"}
	first := viewRow{name: name("kscope first screen of rows"), target: firstTarget, unit: " s"}
	peak := viewRow{name: name("kscope peak RSS"), target: peakTarget, unit: " MB"}
	pair := viewRow{name: name("floor of rows and metadata (Table + metadata list at once)"), unit: " s"}
	pairRatio := viewRow{name: name("kscope complete / floor of rows and metadata"), unit: "×"}
	for _, r := range res.Rounds {
		sr, ok := r.States[st]
		if !ok {
			continue
		}
		s, f := sr.Namespace, floorOf(sr.FloorS)
		if all {
			s, f = sr.All, floorOf(sr.FloorAllS)
		}
		c := failedAsInf(s, s.LaunchS)
		floor.values = append(floor.values, f)
		complete.values = append(complete.values, c)
		ratio.values = append(ratio.values, ratioOf(c, f))
		first.values = append(first.values, failedAsInf(s, positiveOrInf(s.FirstS)))
		peak.values = append(peak.values, failedAsInf(s, s.PeakRSSMB))
		if all && sr.FloorPairS != 0 {
			pair.values = append(pair.values, floorOf(sr.FloorPairS))
			pairRatio.values = append(pairRatio.values, ratioOf(c, floorOf(sr.FloorPairS)))
		}
	}
	if len(floor.values) == 0 {
		return nil
	}
	rows := []viewRow{floor, complete, ratio}
	if len(pair.values) > 0 {
		rows = append(rows, pair, pairRatio)
	}
	return append(rows, first, peak)
}

// positiveOrInf is v, or +Inf when it was never measured.
func positiveOrInf(v float64) float64 {
	if v <= 0 {
		return math.Inf(1)
	}
	return v
}

// viewFigures are the views' figures.
func viewFigures(res *ViewResults) []viewRow {
	health := viewRow{name: "HEALTH column: shift-h → filled", target: healthTarget, unit: " s"}
	grow := viewRow{name: "HEALTH column: RSS added (after − before)", target: healthGrowTarget, unit: " MB"}
	healthPeak := viewRow{name: "HEALTH column: peak RSS", unit: " MB"}
	tree := viewRow{name: "tree of a pod: t → complete", target: treeTarget, unit: " s"}
	treeGrow := viewRow{name: "tree of a pod: RSS added (after − before)", unit: " MB"}
	custom := viewRow{name: "custom columns: launch → complete", target: customTarget, unit: " s"}
	customPeak := viewRow{name: "custom columns: peak RSS", target: customPeakTarget, unit: " MB"}
	all := viewRow{name: "`all` in the namespace: launch → complete", target: allTarget, unit: " s"}
	allPeak := viewRow{name: "`all` in the namespace: peak RSS", unit: " MB"}
	for _, r := range res.Rounds {
		if v, ok := r.Views[viewHealth]; ok {
			health.values = append(health.values, keyFigure(v))
			grow.values = append(grow.values, growFigure(v))
			healthPeak.values = append(healthPeak.values, failedAsInf(v.Launch, v.PeakRSSMB))
		}
		if v, ok := r.Views[viewTree]; ok {
			tree.values = append(tree.values, keyFigure(v))
			treeGrow.values = append(treeGrow.values, growFigure(v))
		}
		if v, ok := r.Views[viewCustom]; ok {
			custom.values = append(custom.values, failedAsInf(v.Launch, v.Launch.LaunchS))
			customPeak.values = append(customPeak.values, failedAsInf(v.Launch, v.Launch.PeakRSSMB))
		}
		if v, ok := r.Views[viewAll]; ok {
			all.values = append(all.values, failedAsInf(v.Launch, v.Launch.LaunchS))
			allPeak.values = append(allPeak.values, failedAsInf(v.Launch, v.Launch.PeakRSSMB))
		}
	}
	return []viewRow{health, grow, healthPeak, tree, treeGrow, custom, customPeak, all, allPeak}
}

// keyFigure is a view's key → complete time, +Inf when it failed or never ran.
func keyFigure(v ViewSample) float64 {
	if v.KeyS <= 0 {
		return math.Inf(1)
	}
	return v.KeyS
}

// growFigure is the RSS a view added, +Inf when it failed.
func growFigure(v ViewSample) float64 {
	if v.KeyS <= 0 || v.RSSAfterMB == 0 {
		return math.Inf(1)
	}
	return v.RSSAfterMB - v.RSSBeforeMB
}

// writeViewRounds writes the machine, the versions and every round's samples.
func writeViewRounds(w *strings.Builder, res *ViewResults) {
	fmt.Fprintf(w, "\n## Rounds (%s → %s)\n\nMachine:\n```\n", res.Started, res.Finished)
	for _, k := range sortedKeys(res.Machine) {
		fmt.Fprintf(w, "%s: %s\n", k, res.Machine[k])
	}
	fmt.Fprintln(w, "```\nVersions:\n```")
	for _, k := range sortedKeys(res.Versions) {
		fmt.Fprintf(w, "%s: %s\n", k, res.Versions[k])
	}
	fmt.Fprintln(w, "```\nSamples (load: the 1-minute, 5-minute and 15-minute load averages when the measure started):\n```")
	for _, r := range res.Rounds {
		for _, st := range sortedKeys(r.States) {
			sr := r.States[st]
			fmt.Fprintf(w, "round %d %-9s namespace: floor %s s, kscope %s%s\n", r.Run, st, fig(floorOf(sr.FloorS)),
				summary(sr.Namespace), busy(sr.Namespace, res.MaxLoad))
			fmt.Fprintf(w, "round %d %-9s all:       floor %s s (%d rows; with metadata %s s), kscope %s%s\n", r.Run, st,
				fig(floorOf(sr.FloorAllS)), sr.FloorRows, fig(floorOf(sr.FloorPairS)), summary(sr.All), busy(sr.All, res.MaxLoad))
			for _, p := range append(sr.Prepared, sr.FloorErrors...) {
				fmt.Fprintf(w, "round %d %-9s   %s\n", r.Run, st, p)
			}
		}
		for _, v := range sortedKeys(r.Views) {
			fmt.Fprintf(w, "round %d %-9s load %s %s%s\n", r.Run, v, r.Views[v].Launch.LoadAvg, viewSummary(r.Views[v]),
				busy(r.Views[v].Launch, res.MaxLoad))
		}
	}
	fmt.Fprintln(w, "```")
}

// busy marks a measure that started above the load limit.
func busy(s Sample, maxLoad float64) string {
	if s.LoadAvg != "" && loadOf(s.LoadAvg) > maxLoad {
		return fmt.Sprintf(" [started at load %s, above %.2f]", s.LoadAvg, maxLoad)
	}
	return ""
}
