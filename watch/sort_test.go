package watch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestNaturalCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"pod-2", "pod-10", -1},
		{"pod-10", "pod-2", 1},
		{"pod-2", "pod-2", 0},
		{"a", "b", -1},
		{"pod", "pod-1", -1},
		{"10.0.0.9", "10.0.0.10", -1},
		{"v1.9", "v1.10", -1},
		{"x01", "x1", -1}, // equal value: byte order decides
		{"", "a", -1},
		{"B", "a", -1},
	}
	for _, tt := range tests {
		if got := naturalCompare(tt.a, tt.b); sign(got) != tt.want {
			t.Errorf("naturalCompare(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

func TestClassifyOrder(t *testing.T) {
	tests := []struct {
		typ string
		in  []string // in ascending order
	}{
		{"integer", []string{"-3", "0", "2", "10", "100", "<none>"}},
		{"number", []string{"0.5", "1", "1.25", "abc"}},
		{"string", []string{"0/1", "0/3", "1/3", "2/3", "1/1", "3/3"}},
		{"string", []string{"9s", "45s", "2m", "5m10s", "3h", "2d4h", "10d", "1y30d", "<unknown>"}},
		{"date", []string{"30s", "5m", "7d", "<invalid>"}},
		{"string", []string{"Completed", "Pending", "Running", "pod-2", "pod-10"}},
		{"string", []string{"0", "3 (5m ago)", "12"}},
	}
	for _, tt := range tests {
		shuffled := slices.Clone(tt.in)
		rand.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		slices.SortFunc(shuffled, func(a, b string) int { return classify(a, tt.typ).compare(classify(b, tt.typ)) })
		if !slices.Equal(shuffled, tt.in) {
			t.Errorf("%s order %q, want %q", tt.typ, shuffled, tt.in)
		}
	}
}

func testRows(n int) []*Row {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]*Row, n)
	status := []string{"Running", "Pending", "Completed", "CrashLoopBackOff"}
	for i := range rows {
		ns := fmt.Sprintf("ns-%d", i%7)
		name := fmt.Sprintf("pod-%d", i)
		rows[i] = &Row{
			Key: ns + "/" + name, Namespace: ns, Name: name, ResourceVersion: fmt.Sprint(i + 1),
			Created: base.Add(time.Duration(i*37%n) * time.Second),
			Labels:  map[string]string{"app": fmt.Sprintf("app-%d", i%10), "tier": []string{"web", "db"}[i%2]},
			Cells: []string{name, fmt.Sprintf("%d/%d", i%3, 2), status[i%4], fmt.Sprint(i % 13),
				FormatAge(time.Duration(i) * time.Second), fmt.Sprintf("10.0.%d.%d", i/250, i%250)},
		}
	}
	return rows
}

var testColumns = []Column{
	{Name: "Name", Type: "string", Format: "name"},
	{Name: "Ready", Type: "string"},
	{Name: "Status", Type: "string"},
	{Name: "Restarts", Type: "integer"},
	{Name: "Age", Type: "string", Age: true},
	{Name: "IP", Type: "string", Priority: 1},
}

func TestRowOrder(t *testing.T) {
	rows := testRows(300)
	for col := -1; col < len(testColumns); col++ {
		for _, desc := range []bool{false, true} {
			o := newRowOrder(Query{SortColumn: col, Descending: desc}, testColumns)
			got := sortRows(rows, o)
			for i := 1; i < len(got); i++ {
				a, b := got[i-1], got[i]
				if o.compare(a, b) >= 0 {
					t.Fatalf("col %d desc %v: %s not before %s", col, desc, a.Key, b.Key)
				}
				switch {
				case col == 4 && !desc && a.Created.Before(b.Created):
					t.Fatalf("age ascending: %s (%v) before %s (%v)", a.Key, a.Created, b.Key, b.Created)
				case col == 3 && !desc && parseInt(a.Cells[3]) > parseInt(b.Cells[3]):
					t.Fatalf("restarts ascending: %s before %s", a.Cells[3], b.Cells[3])
				case col == -1 && !desc && a.Namespace == b.Namespace && naturalCompare(a.Name, b.Name) > 0:
					t.Fatalf("natural order: %s before %s", a.Name, b.Name)
				}
			}
		}
	}
}

func parseInt(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// TestNaturalKeyAgreesWithNaturalCompare: comparing keys gives naturalCompare's order (ties aside).
func TestNaturalKeyAgreesWithNaturalCompare(t *testing.T) {
	words := []string{"pod-2", "pod-10", "pod-1", "pod", "pod-", "pod-0", "pod-00", "a", "a5", "a-b", "10.0.0.9",
		"10.0.0.10", "v1.9", "v1.10", "", "B", "b", "x01", "x1", "x", "1", "9", "10", "~", "0/1", "1/1", "z9z", "z10a"}
	for _, a := range words {
		for _, b := range words {
			want := sign(naturalCompare(a, b))
			got := sign(strings.Compare(naturalKey(a), naturalKey(b)))
			if got != want && !(got == 0 && strings.ReplaceAll(a, "0", "") == strings.ReplaceAll(b, "0", "")) {
				t.Errorf("naturalKey order of %q, %q: %d, naturalCompare %d", a, b, got, want)
			}
		}
	}
}

// TestSortRowsInPartsEqualsOneSort: a sort in parts (large inputs) orders exactly as one sort does, and as
// sorting by rowOrder.compare does, ties included.
func TestSortRowsInPartsEqualsOneSort(t *testing.T) {
	cols := []Column{{Name: "NAME", Format: "name"}, {Name: "STATUS"}, {Name: "RESTARTS", Type: "integer"}}
	rows := make([]*Row, 3*parallelSortRows+17)
	for i := range rows {
		name := fmt.Sprintf("pod-%d", (i*7919)%len(rows))
		rows[i] = &Row{Key: "ns/" + name, Namespace: "ns", Name: name,
			Cells: []string{name, []string{"Running", "Pending", "Failed"}[i%3], fmt.Sprint(i % 5)}}
	}
	for col := -1; col < len(cols); col++ {
		for _, desc := range []bool{false, true} {
			o := newRowOrder(Query{SortColumn: col, Descending: desc}, cols)
			got, want := sortRows(rows, o), sortKeyed(rows, o).merge(nil)
			if !slices.Equal(got, want) {
				t.Fatalf("column %d desc %v: the sort in parts differs from one sort", col, desc)
			}
			ref := slices.Clone(rows)
			slices.SortFunc(ref, o.compare) // (the order's keys built row by row, compared as sortKeys)
			if !slices.Equal(got, ref) {
				t.Fatalf("column %d desc %v: the sort differs from one by rowOrder.compare", col, desc)
			}
		}
	}
}
