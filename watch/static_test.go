package watch

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// rowSource is the method set the UI reads (cluster.RowSource); both sources have it.
type rowSource interface {
	Spec() Spec
	Start(ctx context.Context)
	Stop()
	State() State
	Columns() []Column
	Notify() <-chan struct{}
	Changes() ChangeSet
	Snapshot(q Query) Snapshot
	Row(key string) (*Row, bool)
}

var (
	_ rowSource = (*Source)(nil)
	_ rowSource = (*StaticSource)(nil)
)

func staticRow(ns, name, ready, restarts string, age time.Duration, labels map[string]string) *Row {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	return &Row{Key: rowKey(ns, name), Namespace: ns, Name: name, Created: t0.Add(-age), Labels: labels,
		Cells: []string{ns, name, ready, restarts, FormatAge(age)}}
}

// TestStaticSourceOrdersAsSource: for the same rows and columns, every query gives the same snapshot from a
// StaticSource as from a Source, and the natural order compares numbers by value.
func TestStaticSourceOrdersAsSource(t *testing.T) {
	spec := Spec{GVR: schema.GroupVersionResource{Version: "v1", Resource: "pods"}, Namespaced: true}
	src, err := NewSource(&rest.Config{Host: "https://127.0.0.1:1"}, spec)
	if err != nil {
		t.Fatal(err)
	}
	src.conv.setColumns([]metav1.TableColumnDefinition{
		{Name: "Name", Type: "string", Format: "name"}, {Name: "Ready", Type: "string"},
		{Name: "Restarts", Type: "integer"}, {Name: "Age", Type: "string", Description: "CreationTimestamp is a timestamp"},
	}, false)
	web := map[string]string{"app": "web"}
	rows := []*Row{
		staticRow("shop", "pod-10", "1/1", "0", time.Hour, web),
		staticRow("shop", "pod-9", "0/1", "12", 3*time.Minute, nil),
		staticRow("shop", "pod-2", "1/1", "3", 2*time.Hour, web),
		staticRow("shop", "pod-1", "1/2", "3", 90*time.Second, nil),
		staticRow("bank", "api-1", "2/2", "1", 24*time.Hour, web),
		staticRow("bank10", "api-1", "2/2", "1", 24*time.Hour, nil),
		staticRow("bank9", "Api-1", "1/1", "0", 5*time.Hour, nil),
	}
	for _, r := range rows {
		src.store.put(r)
	}
	static := NewStaticSource(spec, src.Columns(), rows...)

	keys := func(s Snapshot) string {
		out := make([]string, len(s.Rows))
		for i, r := range s.Rows {
			out[i] = r.Key
		}
		return strings.Join(out, " ")
	}
	if got, want := keys(static.Snapshot(Query{SortColumn: -1})),
		"bank/api-1 bank9/Api-1 bank10/api-1 shop/pod-1 shop/pod-2 shop/pod-9 shop/pod-10"; got != want {
		t.Errorf("natural order\n got %s\nwant %s", got, want)
	}
	var queries []Query
	for col := -1; col < len(src.Columns()); col++ {
		for _, desc := range []bool{false, true} {
			for _, filter := range []string{"", "pod-1", "-l app=web", "1/."} {
				f, err := ParseFilter(filter)
				if err != nil {
					t.Fatal(err)
				}
				queries = append(queries, Query{SortColumn: col, Descending: desc, Filter: f})
			}
		}
	}
	for _, q := range queries {
		want, got := src.Snapshot(q), static.Snapshot(q)
		if keys(got) != keys(want) || got.Total != want.Total {
			t.Errorf("column %d desc %v filter %q:\n static %s (%d)\n source %s (%d)",
				q.SortColumn, q.Descending, q.Filter, keys(got), got.Total, keys(want), want.Total)
		}
	}
}

func TestStaticSourceChanges(t *testing.T) {
	a, b := staticRow("shop", "a", "1/1", "0", time.Minute, nil), staticRow("shop", "b", "1/1", "0", time.Minute, nil)
	a2 := staticRow("shop", "a", "0/1", "1", time.Minute, nil)
	c := staticRow("shop", "c", "1/1", "0", time.Minute, nil)
	tests := []struct {
		name   string
		change func(s *StaticSource)
		want   ChangeSet
		notify bool
	}{
		{"nothing", func(*StaticSource) {}, ChangeSet{}, false},
		{"put new", func(s *StaticSource) { s.Put(c) }, ChangeSet{Added: []string{"shop/c"}}, true},
		{"put existing", func(s *StaticSource) { s.Put(a2) }, ChangeSet{Updated: []string{"shop/a"}}, true},
		{"put new, then again", func(s *StaticSource) { s.Put(c, staticRow("shop", "c", "0/1", "0", 0, nil)) },
			ChangeSet{Added: []string{"shop/c"}}, true},
		{"put the same row", func(s *StaticSource) { s.Put(a) }, ChangeSet{}, false},
		{"delete", func(s *StaticSource) { s.Delete("shop/b") }, ChangeSet{Deleted: []*Row{b}}, true},
		{"delete unknown", func(s *StaticSource) { s.Delete("shop/zzz") }, ChangeSet{}, false},
		{"put new, then delete", func(s *StaticSource) { s.Put(c); s.Delete("shop/c") }, ChangeSet{}, true},
		{"delete, then put back", func(s *StaticSource) { s.Delete("shop/a"); s.Put(a2) },
			ChangeSet{Updated: []string{"shop/a"}}, true},
		{"without a key", func(s *StaticSource) { s.Put(&Row{Namespace: "shop", Name: "d"}) },
			ChangeSet{Added: []string{"shop/d"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStaticSource(Spec{Namespaced: true, Namespace: "shop"}, nil, a, b)
			if cs := s.Changes(); !cs.Empty() {
				t.Fatalf("initial rows reported as changes: %+v", cs)
			}
			tt.change(s)
			if got := s.Changes(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Changes() = %+v, want %+v", got, tt.want)
			}
			select {
			case <-s.Notify():
				if !tt.notify {
					t.Error("notified without a change")
				}
			default:
				if tt.notify {
					t.Error("no notification")
				}
			}
		})
	}
}

func TestStaticSourceLifecycle(t *testing.T) {
	tests := []struct {
		name  string
		state State // set before Stop; zero: left Synced
		want  Phase
	}{
		{"synced", State{}, Stopped},
		{"listing", State{Phase: Listing}, Stopped},
		{"forbidden is kept", State{Phase: Forbidden, Message: "no"}, Forbidden},
		{"unauthorized is kept", State{Phase: Unauthorized, Message: "token expired"}, Unauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStaticSource(Spec{}, nil, &Row{Name: "a", Cells: []string{"a"}})
			if st := s.State(); st.Phase != Synced {
				t.Fatalf("initial state %s", st.Phase)
			}
			s.Start(context.Background())
			if !s.Started() || s.Stopped() {
				t.Fatalf("after Start: started %v stopped %v", s.Started(), s.Stopped())
			}
			if tt.state != (State{}) {
				s.SetState(tt.state)
				if st := s.State(); st != tt.state {
					t.Fatalf("SetState: %+v", st)
				}
			}
			s.Stop()
			if st := s.State(); st.Phase != tt.want || !s.Stopped() {
				t.Errorf("after Stop: %s (stopped %v), want %s", st.Phase, s.Stopped(), tt.want)
			}
			s.Put(&Row{Name: "b"})
			if n := len(s.Snapshot(Query{SortColumn: -1}).Rows); n != 0 || s.Len() != 0 {
				t.Errorf("%d rows after Stop", n)
			}
			if _, ok := s.Row("a"); ok {
				t.Error("Row(a) after Stop")
			}
		})
	}
}

func TestStaticSourceSetColumns(t *testing.T) {
	// "2d" and "30h" are ages in a string column (30h first) but text in an integer one ("2d" first).
	s := NewStaticSource(Spec{}, []Column{{Name: "Name", Type: "string"}, {Name: "Since", Type: "string"}},
		&Row{Key: "a", Name: "a", Cells: []string{"a", "2d"}}, &Row{Key: "b", Name: "b", Cells: []string{"b", "30h"}})
	q := Query{SortColumn: 1}
	first := func() string { return s.Snapshot(q).Rows[0].Key }
	if got := first(); got != "b" {
		t.Fatalf("by a string column: first %s, want b (30h < 2d)", got)
	}
	s.SetColumns([]Column{{Name: "Name", Type: "string"}, {Name: "Since", Type: "integer"}})
	select {
	case <-s.Notify():
	default:
		t.Error("SetColumns did not notify")
	}
	if got := s.Columns()[1].Type; got != "integer" {
		t.Errorf("Columns()[1].Type = %q", got)
	}
	if got := first(); got != "a" {
		t.Errorf("by an integer column: first %s, want a (text 2d < 30h)", got)
	}
}
