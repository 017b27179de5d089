package livetable

import (
	"slices"
	"testing"

	"kscope/columns"
	"kscope/watch"
)

// TestOrderedColumns: a views.yaml entry shows the server columns it names, in its order and in any case,
// wide ones only in wide mode, hidden ones never; in wide mode the others follow.
func TestOrderedColumns(t *testing.T) {
	cols := []watch.Column{{Name: "NAME"}, {Name: "READY"}, {Name: "STATUS"}, {Name: "AGE"}, {Name: "IP"}}
	view := []columns.ViewColumn{{Name: "status"}, {Name: "Name"}, {Name: "IP", Wide: true}, {Name: "AGE", Hide: true},
		{Name: "GONE"}}
	tests := []struct {
		name string
		wide bool
		want []int
	}{
		{"named, in the entry's order", false, []int{2, 0}},
		{"wide: the wide one, then the rest", true, []int{2, 0, 4, 1}},
	}
	for _, tt := range tests {
		if got := orderedColumns(cols, view, tt.wide); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
