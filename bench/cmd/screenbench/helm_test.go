package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Screens as kscope and k9s draw their Helm views (trimmed to the lines that matter).
var (
	kscopeHelmReading = []string{
		"┌──────────────────── helm(bench-helm-1000)[1000] ────────────────────┐",
		"│NAME          NAMESPACE        REVISION STATUS   CHART              │",
		"│release-0000  bench-helm-1000  5        deployed                    │",
		"│release-0001  bench-helm-1000  5        deployed  release-0001-1.5.0│",
		"└─────────────────────────────────────────────────────────────────────┘",
		" 1000 release(s) in bench-helm-1000; chart and app version read from each latest revision once · reading the charts: 996 left",
	}
	// The rows on screen have their charts, the rows below them not yet.
	kscopeHelmReadingBelow = []string{
		"┌──────────────────── helm(bench-helm-1000)[1000] ────────────────────┐",
		"│release-0000  bench-helm-1000  5        deployed  release-0000-1.5.0│",
		"│release-0001  bench-helm-1000  5        deployed  release-0001-1.5.0│",
		" 1000 release(s) in bench-helm-1000; chart and app version read from each latest revision once · reading the charts: 950 left",
	}
	kscopeHelmDone = []string{
		"┌──────────────────── helm(bench-helm-1000)[1000] ────────────────────┐",
		"│NAME          NAMESPACE        REVISION STATUS   CHART              │",
		"│release-0000  bench-helm-1000  5        deployed  release-0000-1.5.0│",
		"│release-0001  bench-helm-1000  5        deployed  release-0001-1.5.0│",
		"└─────────────────────────────────────────────────────────────────────┘",
		" 1000 release(s) in bench-helm-1000; chart and app version read from each latest revision once",
	}
	k9sHelmDone = []string{
		"┌───────────────────────── Helm(bench-helm-1000)[1,000] ─────────────────────────┐",
		"│ NAME↑          NAMESPACE         REVISION  STATUS    CHART               APP │",
		"│ release-0000   bench-helm-1000   5         deployed  release-0000-1.5.0  2.1 │",
	}
	kscopeHelmFiltered = []string{
		"┌──────────────────── helm(bench-helm-1000)[1/1000] </0001> ─────────┐",
		"│release-0001  bench-helm-1000  5        deployed  release-0001-1.5.0│",
	}
	kscopeHelmPartial = []string{
		"┌──────────────────── helm(bench-helm-1000)[500] ─────────────────────┐",
		"│release-0000  bench-helm-1000  5        deployed  release-0000-1.5.0│",
	}
	kscopeHelmEmpty = []string{
		"┌──────────────────── helm(bench-helm-1000)[0] ───────────────────────┐",
		"│                     listing the releases …                          │",
	}
)

func TestHelmScreenReadsTitleChartsAndReading(t *testing.T) {
	for _, tc := range []struct {
		name     string
		screen   []string
		count    int
		titled   bool
		reading  bool
		charts   bool
		complete bool
	}{
		{name: "kscope reading", screen: kscopeHelmReading, count: 1000, titled: true, reading: true, charts: false},
		{name: "kscope reading below", screen: kscopeHelmReadingBelow, count: 1000, titled: true, reading: true, charts: true},
		{name: "kscope done", screen: kscopeHelmDone, count: 1000, titled: true, charts: true, complete: true},
		{name: "k9s thousands", screen: k9sHelmDone, count: 1000, titled: true, charts: true, complete: true},
		{name: "filtered", screen: kscopeHelmFiltered, titled: false, charts: true},
		{name: "partial", screen: kscopeHelmPartial, count: 500, titled: true, charts: true},
		{name: "empty", screen: kscopeHelmEmpty, count: 0, titled: true},
		{name: "no screen", screen: nil},
	} {
		n, ok := helmTitleCount(tc.screen)
		if ok != tc.titled || n != tc.count {
			t.Errorf("%s: title count %d, %v; want %d, %v", tc.name, n, ok, tc.count, tc.titled)
		}
		if got := helmReadingCharts(tc.screen); got != tc.reading {
			t.Errorf("%s: reading %v, want %v", tc.name, got, tc.reading)
		}
		if got := helmChartsShown(tc.screen, helmChartVersion(5)); got != tc.charts {
			t.Errorf("%s: charts shown %v, want %v", tc.name, got, tc.charts)
		}
		if got := helmComplete(tc.screen, 1000, helmChartVersion(5)); got != tc.complete {
			t.Errorf("%s: complete %v, want %v", tc.name, got, tc.complete)
		}
	}
}

func TestHelmChartsShownWantsTheLatestRevisionsChart(t *testing.T) {
	older := []string{"│release-0000  bench-helm-1000  5  deployed  release-0000-1.4.0│"}
	other := []string{"│release-0000  bench-helm-1000  5  deployed  release-0001-1.5.0│"}
	for name, sc := range map[string][]string{"an older chart": older, "another release's chart": other} {
		if helmChartsShown(sc, helmChartVersion(5)) {
			t.Errorf("%s counts as the latest chart shown", name)
		}
	}
}

func TestHelmWatchRecordsEachMilestoneOnce(t *testing.T) {
	w := &helmWatch{releases: 1000, chart: helmChartVersion(5)}
	steps := []struct {
		sc       []string
		complete bool
	}{
		{sc: []string{"starting"}},
		{sc: kscopeHelmEmpty},
		{sc: kscopeHelmPartial},
		{sc: kscopeHelmReading},
		{sc: kscopeHelmDone, complete: true},
	}
	for i, s := range steps {
		if got := w.complete(s.sc, secondsDur(i+1)); got != s.complete {
			t.Errorf("step %d: complete %v, want %v", i+1, got, s.complete)
		}
	}
	if w.frame != secondsDur(2) || w.first != secondsDur(3) || w.count != secondsDur(4) {
		t.Errorf("frame %s first %s count %s; want 2s, 3s, 4s", w.frame, w.first, w.count)
	}
}

func TestParseHelmList(t *testing.T) {
	for _, tc := range []struct {
		out           string
		releases      int
		initS, runS   float64
		wantErrSubstr string
	}{
		{out: "releases=1000 init_s=0.012 run_s=3.456\n", releases: 1000, initS: 0.012, runS: 3.456},
		{out: "releases=1000 init_s=0.012\n", wantErrSubstr: "want releases="},
		{out: "releases=x init_s=0.012 run_s=1\n", wantErrSubstr: "releases=x"},
		{out: "", wantErrSubstr: "want releases="},
	} {
		n, i, r, err := parseHelmList(tc.out)
		switch {
		case tc.wantErrSubstr != "":
			if err == nil || !strings.Contains(err.Error(), tc.wantErrSubstr) {
				t.Errorf("%q: error %v, want one saying %q", tc.out, err, tc.wantErrSubstr)
			}
		case err != nil || n != tc.releases || i != tc.initS || r != tc.runS:
			t.Errorf("%q: %d %v %v %v; want %d %v %v", tc.out, n, i, r, err, tc.releases, tc.initS, tc.runS)
		}
	}
}

func TestHelmMedianCountsAFailedRunAsInfinitelySlow(t *testing.T) {
	ok := func(s float64) HelmSample { return HelmSample{CompleteS: s, RSSMB: s * 100} }
	complete := func(s HelmSample) float64 { return s.CompleteS }
	rss := func(s HelmSample) float64 { return s.RSSMB }
	for _, tc := range []struct {
		name    string
		samples []HelmSample
		get     func(HelmSample) float64
		timed   bool
		want    float64
	}{
		{name: "all ran", samples: []HelmSample{ok(3), ok(1), ok(2)}, get: complete, timed: true, want: 2},
		{name: "one failed", samples: []HelmSample{ok(1), {}, ok(2)}, get: complete, timed: true, want: 2},
		{name: "two failed", samples: []HelmSample{ok(1), {}, {}}, get: complete, timed: true, want: math.Inf(1)},
		{name: "rss skips failed", samples: []HelmSample{ok(1), {RSSMB: 999}, ok(3)}, get: rss, want: 200},
	} {
		if got := helmMedian(tc.samples, tc.get, tc.timed); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestHelmGoal(t *testing.T) {
	for _, tc := range []struct {
		kscope, k9s float64
		met         bool
	}{
		{kscope: 0.4, k9s: 5, met: true},
		{kscope: 0.4, k9s: 3, met: false},          // more than a tenth of k9s's
		{kscope: 0.6, k9s: 60, met: false},         // above 0.5 s
		{kscope: 0.4, k9s: math.Inf(1), met: true}, // k9s never completed
		{kscope: math.Inf(1), k9s: math.Inf(1), met: false},
		{kscope: 0.3, k9s: math.NaN(), met: true}, // no k9s
	} {
		if met, why := helmGoal(tc.kscope, tc.k9s); met != tc.met {
			t.Errorf("kscope %v, k9s %v: met %v (%s), want %v", tc.kscope, tc.k9s, met, why, tc.met)
		}
	}
}

func secondsDur(n int) time.Duration { return time.Duration(n) * time.Second }

func TestHelmChartsLeftAndReadRate(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen []string
		left   int
		ok     bool
	}{
		{name: "reading", screen: kscopeHelmReading, left: 996, ok: true},
		{name: "done", screen: kscopeHelmDone},
		{name: "k9s", screen: k9sHelmDone},
	} {
		if left, ok := helmChartsLeft(tc.screen); left != tc.left || ok != tc.ok {
			t.Errorf("%s: %d left, %v; want %d, %v", tc.name, left, ok, tc.left, tc.ok)
		}
	}
	w := &helmWatch{releases: 1000, chart: helmChartVersion(5)}
	left := func(n int) []string {
		return []string{kscopeHelmReading[0], " 1000 release(s) · reading the charts: " + strconv.Itoa(n) + " left"}
	}
	w.complete(left(990), secondsDur(1))
	w.complete(left(1000), secondsDur(2)) // a new revision queued: the most rises
	w.complete(left(960), secondsDur(7))
	w.complete(kscopeHelmDone, secondsDur(8)) // says nothing left: not a sample
	if w.mostLeft != 1000 || w.mostAt != secondsDur(2) || w.lastLeft != 960 || w.lastAt != secondsDur(7) || w.readRate() != 8 {
		t.Errorf("most %d at %s, last %d at %s, rate %v; want 1000 at 2s, 960 at 7s, 8", w.mostLeft, w.mostAt, w.lastLeft, w.lastAt, w.readRate())
	}
	if r := (&helmWatch{}).readRate(); r != 0 {
		t.Errorf("rate without samples %v, want 0", r)
	}
}

func TestHelmSampleRate(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     HelmSample
		rate  float64
		exact bool
	}{
		{name: "timed", s: HelmSample{MostLeft: 2000, MostAtS: 1, LastLeft: 1400, LastAtS: 121}, rate: 5, exact: true},
		{name: "failed, no times", s: HelmSample{MostLeft: 1990, LastLeft: 1390, CountS: 0.5}, rate: 5},
		{name: "complete, no times", s: HelmSample{MostLeft: 110, CountS: 1, CompleteS: 12}, rate: 10},
		{name: "nothing read", s: HelmSample{CompleteS: 0.7, CountS: 0.7}},
	} {
		if rate, exact := helmSampleRate(tc.s, 120.5); rate != tc.rate || exact != tc.exact {
			t.Errorf("%s: %v, %v; want %v, %v", tc.name, rate, exact, tc.rate, tc.exact)
		}
	}
}
