package livetable

import (
	"fmt"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"kscope/watch"
)

// benchRows returns n pod-like rows in natural order.
func benchRows(n int) []*watch.Row {
	rows := make([]*watch.Row, n)
	for i := range rows {
		name := fmt.Sprintf("pod-%06d", i)
		rows[i] = &watch.Row{Key: "bench/" + name, Namespace: "bench", Name: name, Created: t0.Add(-time.Hour),
			Cells: []string{name, "1/1", "Running", "0", "", "10.0.0.1", "kwok-node-0"}}
	}
	return rows
}

func benchColumns() []watch.Column {
	return []watch.Column{{Name: "NAME", Format: "name"}, {Name: "READY"}, {Name: "STATUS"},
		{Name: "RESTARTS", Type: "integer"}, {Name: "AGE", Age: true}, {Name: "IP", Priority: 1}, {Name: "NODE", Priority: 1}}
}

// BenchmarkRowContentUpdate50k: one UI-side refresh of a 50k-row table with a few changes (the snapshot is
// given; building it is package watch's work).
func BenchmarkRowContentUpdate50k(b *testing.B) {
	rows := benchRows(50000)
	c := NewRowContent(func() time.Time { return t0 }, time.Second, 3*time.Second)
	c.SetColumns(benchColumns(), false)
	snap := watch.Snapshot{Rows: rows, Total: len(rows)}
	changes := watch.ChangeSet{Updated: []string{rows[10].Key, rows[20000].Key}}
	b.ReportAllocs()
	for b.Loop() {
		c.Update(snap, changes, nil)
		_ = c.IndexOf(rows[40000].Key)
	}
}

// BenchmarkTableDraw50k: drawing a 160×45 table over 50k rows (only the visible rows are built).
func BenchmarkTableDraw50k(b *testing.B) {
	rows := benchRows(50000)
	c := NewRowContent(func() time.Time { return t0 }, time.Second, 3*time.Second)
	c.SetColumns(benchColumns(), false)
	c.Update(watch.Snapshot{Rows: rows, Total: len(rows)}, watch.ChangeSet{}, nil)
	table := tview.NewTable().SetContent(c).SetFixed(1, 0).SetSelectable(true, false)
	table.Select(25000, 0)
	screen := tcell.NewSimulationScreen("UTF-8")
	if err := screen.Init(); err != nil {
		b.Fatal(err)
	}
	screen.SetSize(160, 45)
	table.SetRect(0, 0, 160, 45)
	b.ReportAllocs()
	for b.Loop() {
		table.Draw(screen)
	}
}
