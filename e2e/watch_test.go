//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"kscope/watch"
)

// startSource starts a Source for spec and waits until it is synced; it is stopped when t ends.
func startSource(t *testing.T, cfg *rest.Config, spec watch.Spec) *watch.Source {
	t.Helper()
	src, err := watch.NewSource(cfg, spec)
	if err != nil {
		t.Fatal(err)
	}
	src.Start(context.Background())
	t.Cleanup(src.Stop)
	waitPhase(t, src, watch.Synced, 60*time.Second)
	return src
}

// waitPhase waits until src reaches phase, failing t after timeout or on another terminal phase.
func waitPhase(t *testing.T, src *watch.Source, phase watch.Phase, timeout time.Duration) watch.State {
	t.Helper()
	deadline := time.After(timeout)
	for {
		st := src.State()
		if st.Phase == phase {
			return st
		}
		if st.Phase.Terminal() {
			t.Fatalf("%s: state %s (%s), want %s", src.Spec().GVR.Resource, st.Phase, st.Message, phase)
		}
		select {
		case <-src.Notify():
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("%s: state %s (%v) after %v, want %s", src.Spec().GVR.Resource, st.Phase, st.Err, timeout, phase)
		}
	}
}

// timeColumns are the columns whose text the server computes from the clock at print time: kubectl's output
// and the watched rows were printed at different moments, so these are compared as ages within a tolerance.
var timeColumns = map[string]bool{"AGE": true, "LAST SEEN": true, "FIRST SEEN": true, "LAST SCHEDULE": true,
	"DURATION": true}

// kubectlTable parses `kubectl get` output into its header and rows of cells, cutting each line at the start
// positions of the expected headers (cells are left-aligned under their header by kubectl's tabwriter).
func kubectlTable(t *testing.T, out string, headers []string) [][]string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) == 0 || strings.TrimSpace(lines[0]) == "" {
		return nil
	}
	head := []rune(lines[0])
	starts := make([]int, len(headers))
	from := 0
	for i, h := range headers {
		idx := strings.Index(string(head[from:]), h)
		if idx < 0 {
			t.Fatalf("header %q not found in kubectl header %q (want %q)", h, lines[0], headers)
		}
		starts[i] = from + len([]rune(string(head[from:])[:idx]))
		from = starts[i] + len([]rune(h))
	}
	if got := strings.Join(strings.Fields(lines[0]), " "); got != strings.Join(strings.Fields(strings.Join(headers, " ")), " ") {
		t.Fatalf("kubectl header %q, want columns %q", lines[0], headers)
	}
	var rows [][]string
	for _, line := range lines[1:] {
		l := []rune(line)
		cells := make([]string, len(headers))
		for i, s := range starts {
			end := len(l)
			if i+1 < len(starts) {
				end = min(starts[i+1], len(l))
			}
			if s < len(l) {
				cells[i] = strings.TrimSpace(string(l[s:end]))
			}
		}
		rows = append(rows, cells)
	}
	return rows
}

// visible returns the columns kubectl shows (wide: all) as upper-case headers, and their indexes.
func visible(cols []watch.Column, wide bool) ([]string, []int) {
	var names []string
	var idx []int
	for i, c := range cols {
		if c.Priority == 0 || wide {
			names = append(names, strings.ToUpper(c.Name))
			idx = append(idx, i)
		}
	}
	return names, idx
}

// sameCell compares one cell; time columns may differ by the time between the two prints (a row's cells
// were printed when its object last changed, at most `stale` ago, or when the list was read).
func sameCell(header, a, b string, stale time.Duration) bool {
	if a == b {
		return true
	}
	if !timeColumns[header] {
		return false
	}
	da, errA := parseAge(a)
	db, errB := parseAge(b)
	if errA != nil || errB != nil {
		return false
	}
	diff := (da - db).Abs()
	return diff <= stale+2*time.Second || diff <= max(da, db)/10
}

// parseAge parses kubectl's age format ("45s", "5m10s", "2d4h", "1y30d").
func parseAge(s string) (time.Duration, error) {
	units := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour,
		'y': 365 * 24 * time.Hour}
	var total time.Duration
	n, digits := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' {
			n, digits = n*10+int(c-'0'), digits+1
			continue
		}
		u, ok := units[c]
		if !ok || digits == 0 {
			return 0, fmt.Errorf("not an age: %q", s)
		}
		total += time.Duration(n) * u
		n, digits = 0, 0
	}
	if digits != 0 || s == "" {
		return 0, fmt.Errorf("not an age: %q", s)
	}
	return total, nil
}

type cellsCase struct {
	resource   string
	gvr        schema.GroupVersionResource
	namespaced bool
	namespace  string // "" with namespaced: all namespaces (-A)
}

func TestWatchCellsMatchKubectl(t *testing.T) {
	serial(t, "compares all namespaces with kubectl get -A")
	cfg := restConfig(t, "admin")
	core := func(r string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Version: "v1", Resource: r}
	}
	deploy := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgets := schema.GroupVersionResource{Group: "shop.example.com", Version: "v1", Resource: "widgets"}
	var cases []cellsCase
	for _, c := range []cellsCase{
		{"pods", core("pods"), true, ""}, {"deployments", deploy, true, ""}, {"services", core("services"), true, ""},
		{"configmaps", core("configmaps"), true, ""}, {"events", core("events"), true, ""},
		{"widgets.shop.example.com", widgets, true, ""},
	} {
		ns := c
		ns.namespace = "shop"
		cases = append(cases, ns, c)
	}
	cases = append(cases, cellsCase{"nodes", core("nodes"), false, ""})
	// Scale-test namespaces (bench-N, thousands of pods in flux) are left out of -A, on both sides, by a
	// server-side field selector.
	var skip []string
	for _, ns := range strings.Fields(kubectl(t, "get", "namespaces", "-o", "name")) {
		if name := strings.TrimPrefix(ns, "namespace/"); strings.HasPrefix(name, "bench-") || name == "scale" {
			skip = append(skip, "metadata.namespace!="+name)
		}
	}
	skipNamespaces := strings.Join(skip, ",")
	for _, c := range cases {
		name := c.resource + "/" + c.namespace
		if c.namespaced && c.namespace == "" {
			name = c.resource + "/all"
		}
		t.Run(name, func(t *testing.T) {
			spec := watch.Spec{GVR: c.gvr, Namespaced: c.namespaced, Namespace: c.namespace}
			if spec.AllNamespaces() {
				spec.FieldSelector = skipNamespaces
			}
			started := time.Now()
			src := startSource(t, cfg, spec)
			for _, wide := range []bool{false, true} {
				compareWithKubectl(t, src, started, c, wide)
			}
		})
	}
}

// compareWithKubectl compares the source's rows with kubectl's output, retrying for up to 60 s while the
// cluster changes (a real difference persists), and reports the last difference.
func compareWithKubectl(t *testing.T, src *watch.Source, started time.Time, c cellsCase, wide bool) {
	t.Helper()
	args := []string{"get", c.resource}
	switch {
	case c.namespaced && c.namespace == "":
		args = append(args, "-A")
		if src.Spec().FieldSelector != "" {
			args = append(args, "--field-selector", src.Spec().FieldSelector)
		}
	case c.namespaced:
		args = append(args, "-n", c.namespace)
	}
	if wide {
		args = append(args, "-o", "wide")
	}
	diff := func() (problem string, rows, cols int) {
		out := kubectl(t, args...)
		headers, idx := visible(src.Columns(), wide)
		if len(headers) == 0 {
			return "no columns", 0, 0
		}
		for i, j := range idx {
			if col := src.Columns()[j]; (headers[i] == "AGE") != col.Age {
				t.Fatalf("column %q: Age %v", col.Name, col.Age)
			}
		}
		want := kubectlTable(t, out, headers)
		snap := src.Snapshot(watch.Query{SortColumn: -1})
		var got [][]string
		for _, r := range snap.Rows {
			cells := make([]string, len(idx))
			for i, j := range idx {
				cells[i] = r.Cells[j]
			}
			got = append(got, cells)
		}
		return diffTables(headers, got, want, time.Since(started)), len(want), len(headers)
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		problem, rows, cols := diff()
		if problem == "" {
			t.Logf("kubectl %s: %d rows × %d columns equal", strings.Join(args, " "), rows, cols)
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("kubectl %s: still differs after 60 s: %s", strings.Join(args, " "), problem)
			return
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// diffTables compares two tables as multisets of rows, matching time columns loosely.
func diffTables(headers []string, got, want [][]string, stale time.Duration) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, kubectl shows %d", len(got), len(want))
	}
	mask := func(rows [][]string) []string {
		var out []string
		for _, r := range rows {
			var parts []string
			for i, c := range r {
				if timeColumns[headers[i]] {
					c = "~"
				}
				parts = append(parts, c)
			}
			out = append(out, strings.Join(parts, "\t"))
		}
		slices.Sort(out)
		return out
	}
	g, w := mask(got), mask(want)
	for i := range g {
		if g[i] != w[i] {
			return fmt.Sprintf("row differs:\n got  %q\n want %q", g[i], w[i])
		}
	}
	// Time columns: compare row by row in the same masked order.
	byKey := map[string][][]string{}
	for _, r := range want {
		k := maskedKey(headers, r)
		byKey[k] = append(byKey[k], r)
	}
	for _, r := range got {
		k := maskedKey(headers, r)
		ok := false
		for _, cand := range byKey[k] {
			same := true
			for i := range r {
				if !sameCell(headers[i], r[i], cand[i], stale) {
					same = false
				}
			}
			ok = ok || same
		}
		if !ok {
			return fmt.Sprintf("time cells differ beyond tolerance: got %q, kubectl %q", r, byKey[k])
		}
	}
	return ""
}

func maskedKey(headers, r []string) string {
	var parts []string
	for i, c := range r {
		if !timeColumns[headers[i]] {
			parts = append(parts, c)
		}
	}
	return strings.Join(parts, "\t")
}
