package watch

import (
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestFilter(t *testing.T) {
	r := &Row{Cells: []string{"web-7f9c", "1/1", "Running", "10.0.0.12"}, Labels: map[string]string{"app": "web", "tier": "front"}}
	tests := []struct {
		text    string
		want    bool
		wantErr bool
	}{
		{"", true, false},
		{"  ", true, false},
		{"web", true, false},
		{"WEB-7F", true, false},
		{"running", true, false},
		{"pending", false, false},
		{"10.0.0.12", true, false}, // regexp: dots match anything
		{"^1/1$", true, false},
		{"^web$", false, false},
		{"run+ing|pending", true, false},
		{"-l app=web", true, false},
		{"-l app=web,tier!=front", false, false},
		{"-l tier in (front,back)", true, false},
		{"-l app", true, false},
		{"-l !app", false, false},
		{"-l app in (", false, true},
		{"web(", false, true},
		{"[", false, true},
	}
	for _, tt := range tests {
		f, err := ParseFilter(tt.text)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseFilter(%q) error %v, want error %v", tt.text, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if got := f.Match(r); got != tt.want {
			t.Errorf("ParseFilter(%q).Match = %v, want %v", tt.text, got, tt.want)
		}
		withText := *r
		withText.text = searchText(r.Cells, -1)
		if got := f.Match(&withText); got != tt.want {
			t.Errorf("ParseFilter(%q).Match (search text) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestContainsFoldASCII(t *testing.T) {
	tests := []struct {
		s, sub string
		want   bool
	}{
		{"Running", "run", true},
		{"Running", "ning", true},
		{"Running", "ningx", false},
		{"abc", "", true},
		{"", "a", false},
		{"CrashLoopBackOff", "loopback", true},
		{"ab", "abc", false},
	}
	for _, tt := range tests {
		if got := containsFoldASCII(tt.s, tt.sub); got != tt.want {
			t.Errorf("containsFoldASCII(%q, %q) = %v", tt.s, tt.sub, got)
		}
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"node-(3|4)$", "node-"},
		{"^web", "web"},
		{"foo.*barbaz", "barbaz"},
		{"(abc)", "abc"},
		{"run+ing|pending", ""},
		{"[ab]c", "c"},
		{".*", ""},
	}
	for _, tt := range tests {
		if got := requiredLiteral(tt.expr); !strings.EqualFold(got, tt.want) {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tt.expr, got, tt.want)
		}
	}
}

// TestFilterPrefilterAgreesWithRegexp: skipping cells without the required literal never changes the result.
func TestFilterPrefilterAgreesWithRegexp(t *testing.T) {
	cells := []string{"node-3", "NODE-4", "kwok-node-12", "web-7f9c", "Running", "\u212aube-node-3", "1/1", ""}
	for _, expr := range []string{"node-(3|4)$", "^web", "NODE-1", "e-[0-9]+$", "kube", "(?-i)Node", "^$"} {
		f, err := ParseFilter(expr)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cells {
			if got, want := f.Match(&Row{Cells: []string{c}}), f.re.MatchString(c); got != want {
				t.Errorf("filter %q on %q: %v, regexp alone %v", expr, c, got, want)
			}
			cells := []string{c, "x"}
			if got, want := f.Match(&Row{Cells: cells, text: searchText(cells, -1)}), f.re.MatchString(c) || f.re.MatchString("x"); got != want {
				t.Errorf("filter %q on %q with search text: %v, regexp alone %v", expr, c, got, want)
			}
		}
	}
}

// TestFilterMatchesShownAge: the filter matches the Age cell as the table shows it, the age recomputed
// from the creation time at the query's moment, not the server's text from when the row was listed; a
// cached filtered snapshot follows the clock.
func TestFilterMatchesShownAge(t *testing.T) {
	_, listed, err := decodeList(strings.NewReader(podTable), newConverter(false, nil)) // web-1's Age cell: "5m"
	if err != nil {
		t.Fatal(err)
	}
	store := newRowStore()
	for _, o := range listed {
		store.put(o.get())
	}
	cols := buildColumns([]metav1.TableColumnDefinition{{Name: "Name", Format: "name"}, {Name: "Ready"},
		{Name: "Restarts", Type: "integer"}, {Name: "Age", Description: "CreationTimestamp is a timestamp"}, {Name: "IP"}}, false)
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) // web-1; web-2 one second later (natural order: data/web-2 first)
	var snaps snapshotter
	names := func(filter string, at time.Duration) []string {
		f, err := ParseFilter(filter)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range snaps.snapshot(store, Query{SortColumn: -1, Filter: f, Now: created.Add(at)}, cols, 1).Rows {
			out = append(out, r.Name)
		}
		return out
	}
	tests := []struct {
		filter string
		at     time.Duration
		want   []string
	}{
		{"5m", 7 * time.Minute, nil}, // the server's stale text is not what the table shows
		{"7m", 7*time.Minute + 30*time.Second, []string{"web-2", "web-1"}},
		{"7m", 8*time.Minute + 30*time.Second, nil}, // the same cached query a minute later
		{"8m", 8*time.Minute + 30*time.Second, []string{"web-2", "web-1"}},
		{"^8m30s$", 8*time.Minute + 30*time.Second, []string{"web-1"}}, // web-2 reads 8m29s
		{"web-1", 8 * time.Minute, []string{"web-1"}},                  // other cells as they are
		{"1/1", 8 * time.Minute, []string{"web-1"}},
	}
	for _, tt := range tests {
		if got := names(tt.filter, tt.at); !slices.Equal(got, tt.want) {
			t.Errorf("filter %q at created+%v: %q, want %q", tt.filter, tt.at, got, tt.want)
		}
	}
}
