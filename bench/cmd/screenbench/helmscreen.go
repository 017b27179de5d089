package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Both kscope and k9s title their Helm view helm(NAMESPACE)[COUNT] (k9s may write the count with thousands
// separators; kscope writes SHOWN/TOTAL while a filter hides rows, which never counts as complete here).
// kscope's status line says "reading the charts: N left" while the releases' latest revisions are being
// decoded for their CHART and APP VERSION. helmload's releases are named release-NNNN, and each one's chart is
// named after it: release-NNNN-1.REVISIONS.0 on the latest revision.
var (
	helmTitle   = regexp.MustCompile(`(?i)\bhelm\(([^)]*)\)\[([0-9,]+)\]`)
	helmRelease = regexp.MustCompile(`\brelease-[0-9]{4}\b`)
	helmLeft    = regexp.MustCompile(`reading the charts: ([0-9]+) left`)
)

// helmReading is what kscope's status line says while charts are still being read.
const helmReading = "reading the charts"

// helmTitleCount is the count in the Helm view's title on the screen; ok is false when no such title shows.
func helmTitleCount(screen []string) (count int, ok bool) {
	for _, line := range screen {
		m := helmTitle.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
		if err != nil {
			continue
		}
		return n, true
	}
	return 0, false
}

// helmReadingCharts tells whether the screen says charts are still being read.
func helmReadingCharts(screen []string) bool {
	for _, line := range screen {
		if strings.Contains(line, helmReading) {
			return true
		}
	}
	return false
}

// helmChartsLeft is how many charts kscope's status line says are left to read; ok is false when it says none.
func helmChartsLeft(screen []string) (left int, ok bool) {
	for _, line := range screen {
		if m := helmLeft.FindStringSubmatch(line); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

// helmRows is the screen's release rows (the lines naming a release), top to bottom.
func helmRows(screen []string) []string {
	var rows []string
	for _, line := range screen {
		if helmRelease.MatchString(line) {
			rows = append(rows, line)
		}
	}
	return rows
}

// helmChartVersion is the chart version of helmload's latest revision of a release with revisions revisions.
func helmChartVersion(revisions int) string { return fmt.Sprintf("1.%d.0", revisions) }

// helmChartsShown tells whether every release row on the screen shows its latest chart (NAME-VERSION, the
// release's own name: helmload names the chart after it), and there is at least one row.
func helmChartsShown(screen []string, version string) bool {
	rows := helmRows(screen)
	for _, row := range rows {
		name := helmRelease.FindString(row)
		if !strings.Contains(row, name+"-"+version) {
			return false
		}
	}
	return len(rows) > 0
}

// helmComplete tells whether the screen is the Helm view complete: its title counting releases, every visible
// row with its latest chart, and no chart left to read.
func helmComplete(screen []string, releases int, version string) bool {
	n, ok := helmTitleCount(screen)
	return ok && n == releases && !helmReadingCharts(screen) && helmChartsShown(screen, version)
}

// helmWatch follows the screens of one launch of a Helm view: when its title first showed, when release rows
// first showed, when the title first counted every release, and whether the view is complete.
type helmWatch struct {
	releases int
	chart    string        // the latest revision's chart version
	frame    time.Duration // launch → the first capture with the view's title (0: none yet)
	first    time.Duration // → the first capture with a release row
	count    time.Duration // → the first capture whose title counts every release
	// The charts kscope's status line said were left: the most it said (the queue grows while the releases are
	// listed) and the last, each with the capture's time since launch.
	mostLeft, lastLeft int
	mostAt, lastAt     time.Duration
}

// readRate is how many charts a second kscope read from the capture that said the most were left to the last
// capture that said how many (0 when no time passed between them).
func (w *helmWatch) readRate() float64 {
	return helmReadRate(w.mostLeft, w.lastLeft, w.mostAt, w.lastAt)
}

// helmReadRate is the charts read a second from most left at mostAt to last left at lastAt (0 when lastAt is
// not after mostAt).
func helmReadRate(most, last int, mostAt, lastAt time.Duration) float64 {
	if lastAt <= mostAt {
		return 0
	}
	return float64(most-last) / (lastAt - mostAt).Seconds()
}

// complete records the milestones sc (captured at) reaches first and tells whether sc is the complete view.
func (w *helmWatch) complete(sc []string, at time.Duration) bool {
	n, ok := helmTitleCount(sc)
	if ok && w.frame == 0 {
		w.frame = at
	}
	if w.first == 0 && len(helmRows(sc)) > 0 {
		w.first = at
	}
	if ok && n == w.releases && w.count == 0 {
		w.count = at
	}
	if left, reading := helmChartsLeft(sc); reading {
		if left > w.mostLeft {
			w.mostLeft, w.mostAt = left, at
		}
		w.lastLeft, w.lastAt = left, at
	}
	return helmComplete(sc, w.releases, w.chart)
}
