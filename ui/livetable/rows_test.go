package livetable

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/theme"
	"kscope/watch"
)

// things is a namespaced resource with no metrics of its own (a pods table would poll them).
var things = discovery.Resource{Group: "example.com", Version: "v1", Name: "things", Kind: "Thing", Namespaced: true}

// podRow is a row of podsLike: NAME, READY, STATUS, RESTARTS and AGE (computed at draw time).
func podRow(name, status string, age time.Duration) *watch.Row {
	return &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, Created: t0.Add(-age),
		Cells: []string{name, "1/1", status, "0", ""}}
}

// podsLike is a source with the columns of a pods table and three rows: api-5c4b-zzzzz (3 days old),
// web-7d9f-abcde (5 minutes) and web-7d9f-fghij (2 hours).
func podsLike() *watch.StaticSource {
	cols := []watch.Column{
		{Name: "Name", Type: "string", Format: "name"},
		{Name: "Ready", Type: "string"},
		{Name: "Status", Type: "string"},
		{Name: "Restarts", Type: "integer"},
		{Name: "Age", Type: "string", Age: true},
	}
	return watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, cols,
		podRow("api-5c4b-zzzzz", "Pending", 72*time.Hour), podRow("web-7d9f-abcde", "Running", 5*time.Minute),
		podRow("web-7d9f-fghij", "Running", 2*time.Hour))
}

func fg(st tcell.Style) tcell.Color { c, _, _ := st.Decompose(); return c }

// TestSelectionFollowsObjectFlashAndGhost: the cursor stays on its object when rows come and go above it; an
// added row flashes, a deleted one stays dimmed where it was for a moment, and both end in time.
func TestSelectionFollowsObjectFlashAndGhost(t *testing.T) {
	table, h := newTable(t, things, podsLike())
	src := table.Source().(*watch.StaticSource)
	h.run(func() { table.table.Select(2, 0) }) // natural order: api, web-abcde, web-fghij → web-abcde
	if got := h.selected(); got != "shop/web-7d9f-abcde" {
		t.Fatalf("selected %q", got)
	}
	src.Put(podRow("aaa-1", "Pending", 0))
	h.run(table.Refresh)
	if got := h.selected(); got != "shop/web-7d9f-abcde" {
		t.Errorf("after a row was added above, selection moved to %q", got)
	}
	if st, _ := h.style("aaa-1"); fg(st) != theme.ColorFlash {
		t.Errorf("added row does not flash: %v", fg(st))
	}
	src.Delete("shop/api-5c4b-zzzzz")
	h.run(table.Refresh)
	h.contains("api-5c4b-zzzzz")
	if st, _ := h.style("api-5c4b-zzzzz"); fg(st) != theme.ColorGhost {
		t.Errorf("deleted row is not dimmed: %v", fg(st))
	}
	var status string
	h.run(func() { status = table.Status() })
	if want := "[green]synced[-]  3/3"; status[:len(want)] != want {
		t.Errorf("status %q, want it to begin %q", status, want)
	}
	h.clk.Step(3 * time.Second)
	h.run(table.Refresh)
	h.lacks("api-5c4b-zzzzz")
	if st, _ := h.style("aaa-1"); fg(st) != theme.ColorNormal {
		t.Errorf("flash did not end: %v", fg(st))
	}
	if got := h.selected(); got != "shop/web-7d9f-abcde" {
		t.Errorf("after rows moved, selection is %q", got)
	}
}

// TestColumnNamesAreEscaped: a server column name with brackets shows as it is, not as a colour tag.
func TestColumnNamesAreEscaped(t *testing.T) {
	table, h := newTable(t, things, watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, nil))
	src := table.Source().(*watch.StaticSource)
	src.SetColumns([]watch.Column{{Name: "Name", Type: "string", Format: "name"}, {Name: "Size[-]", Type: "string"}})
	h.run(table.Refresh)
	h.contains("NAME   SIZE[-]") // over the "no things here" line
	h.contains("no things here")
	src.Put(&watch.Row{Namespace: "shop", Name: "gizmo", Created: t0, Cells: []string{"gizmo", "3"}})
	h.run(table.Refresh)
	h.contains("SIZE[-]")
	h.contains("gizmo")
}

// TestAgeTickDrawsOnlyWhenAnAgeChanges: a tick redraws only when an AGE on screen reads differently.
func TestAgeTickDrawsOnlyWhenAnAgeChanges(t *testing.T) {
	src := watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, podsLike().Columns(),
		podRow("web-7d9f", "Running", 3*time.Hour))
	table, h := newTable(t, things, src)
	h.text()
	h.clk.Step(time.Hour) // the row is 4 hours old: its age reads in hours and minutes
	draws := func() (n int) {
		h.run(func() { n = h.draws })
		return n
	}
	h.run(table.Tick) // draws the new ages
	base := draws()
	if base == 0 {
		t.Error("the tick after an hour did not draw")
	}
	h.clk.Step(time.Second)
	h.run(table.Tick)
	if n := draws() - base; n != 0 {
		t.Errorf("%d draws for a tick that changed no age", n)
	}
	h.clk.Step(time.Minute)
	h.run(table.Tick)
	if n := draws() - base; n != 1 {
		t.Errorf("%d draws for a tick after the ages changed, want 1", n)
	}
	h.contains("4h1m")
}

// TestCursorStaysOnTopWhileListing: while the first rows stream in, a cursor on the top row stays there;
// once synced, it follows its object.
func TestCursorStaysOnTopWhileListing(t *testing.T) {
	table, h := newTable(t, things, podsLike()) // api-5c4b-zzzzz on top, selected
	src := table.Source().(*watch.StaticSource)
	src.SetState(watch.State{Phase: watch.Listing})
	h.run(table.Refresh) // the table now knows it is listing
	src.Put(podRow("aaa-0", "Running", 0))
	h.run(table.Refresh)
	if got := h.selected(); got != "shop/aaa-0" {
		t.Errorf("while listing, the cursor left the top row for %q", got)
	}
	src.SetState(watch.State{Phase: watch.Synced})
	h.run(table.Refresh)
	src.Put(podRow("000-first", "Running", 0))
	h.run(table.Refresh)
	if got := h.selected(); got != "shop/aaa-0" {
		t.Errorf("once synced, the cursor did not follow its object: %q", got)
	}
}

// TestFirstRowsAfterPlaceholderSelectTop: while a table shows its "listing" placeholder, tview moves the
// cursor past that unselectable line; when the rows arrive, the cursor must be on the first of them.
func TestFirstRowsAfterPlaceholderSelectTop(t *testing.T) {
	table, h := newTable(t, things, watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, nil))
	src := table.Source().(*watch.StaticSource)
	src.SetColumns([]watch.Column{{Name: "Name", Type: "string", Format: "name"}})
	src.SetState(watch.State{Phase: watch.Listing})
	h.run(table.Refresh)
	h.contains("listing things")
	for _, name := range []string{"ccc", "aaa", "bbb"} {
		src.Put(&watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, Created: t0, Cells: []string{name}})
	}
	src.SetState(watch.State{Phase: watch.Synced})
	h.run(table.Refresh)
	if got := h.selected(); got != "shop/aaa" {
		t.Errorf("after the placeholder, the cursor is on %q, want the first row shop/aaa:\n%s", got, h.text())
	}
}

// TestTitleWhileListInPages: while the first list arrives in pages the title says how much of it is in;
// once synced it shows the count alone.
func TestTitleWhileListInPages(t *testing.T) {
	table, h := newTable(t, things, podsLike())
	src := table.Source().(*watch.StaticSource)
	src.SetState(watch.State{Phase: watch.Listing, Expected: 50000})
	h.run(table.Refresh)
	h.contains("things(shop)[3] listing 3 of 50000…")
	src.SetState(watch.State{Phase: watch.Synced})
	h.run(table.Refresh)
	h.contains("things(shop)[3]")
	h.lacks("listing")
}
