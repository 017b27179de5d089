package watch

import (
	"testing"
	"time"
)

func TestRowWithCellsIsFilteredByItsOwnCells(t *testing.T) {
	created := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cells := []string{"web", "Running", "5m"}
	r := &Row{Key: "shop/web", Namespace: "shop", Name: "web", Created: created, Cells: cells, text: searchText(cells, 2)}
	c := r.WithCells(append([]string{"Deployment.apps"}, cells...), 3)
	if c.Key != r.Key || c.Name != "web" || !c.Created.Equal(created) || len(r.Cells) != 3 || r.text != "web\nrunning\n" {
		t.Fatalf("copy %+v, original %+v", c, r)
	}
	now := created.Add(time.Hour)
	for _, tt := range []struct {
		filter string
		want   bool
	}{
		{"deployment", true}, // the new cell, through the search text's fast path
		{"^deployment\\.apps$", true},
		{"running", true},
		{"5m", false}, // the stale age is not searched: the row is an hour old
		{"60m", true},
		{"replicaset", false},
	} {
		f, err := ParseFilter(tt.filter)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.MatchShown(c, 3, "60m"); got != tt.want {
			t.Errorf("filter %q on %q: %v, want %v (at %s)", tt.filter, c.Cells, got, tt.want, now)
		}
	}
}
