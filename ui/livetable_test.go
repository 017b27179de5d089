package ui

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/ui/livetable"
	"kscope/watch"
)

func TestPodsTable(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.golden("pods_100x30")
	h.press(tcell.KeyRune, 'w')
	h.contains("kwok-node-1")
	h.contains("IP")
}

func TestPodsTableSmallTerminalAndResize(t *testing.T) {
	h := start(t, 80, 24, func(o *Options) { o.Resource = "po" })
	h.golden("pods_80x24")
	h.ui(func() { h.screen.SetSize(60, 12) })
	h.ui(func() { h.app.tv.Sync() })
	h.contains("web-7d9f-abcde")
}

func TestAgeIsRecomputedAtDrawTime(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.contains("5m")
	h.advance(2 * time.Minute)
	h.sync()
	h.contains("7m")
}

func TestFilter(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.typeText("/web\n")
	h.contains("pods(shop)[2] </web>")
	h.lacks("api-5c4b")
	h.typeText("/-l app=api\n")
	h.contains("api-5c4b-zzzzz")
	h.lacks("web-7d9f-abcde")
	h.typeText("/-l app in (\n")
	h.contains("invalid label selector")
	h.contains("</-l app=api>") // the previous filter stays
	h.typeText("/[\n")
	h.contains("invalid regular expression")
	h.press(tcell.KeyEscape, 0)
	h.contains("pods(shop)[3]")
}

func TestSort(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyRune, 'N')
	h.press(tcell.KeyRune, 'N')
	h.golden("pods_sorted_name_desc")
	h.press(tcell.KeyRune, 'A')
	lines := strings.Split(h.text(), "\n")
	if i, j := indexOf(lines, "web-7d9f-abcde"), indexOf(lines, "api-5c4b-zzzzz"); i > j {
		t.Errorf("sorted by age, the 5m pod is below the 3d one:\n%s", h.text())
	}
	h.contains("AGE↑")
	h.press(tcell.KeyRune, '!')
	h.contains("AGE↓")
	h.press(tcell.KeyRune, '>') // after AGE the next shown column: none (natural order)
	h.lacks("↑")
	h.press(tcell.KeyRune, '>')
	h.contains("NAME↑")
}

func indexOf(lines []string, s string) int {
	return slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, s) })
}

func TestLiveLoopRedrawsOnNotify(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.cluster.lastSource().Put(&watch.Row{Key: "shop/new-1", Namespace: "shop", Name: "new-1", Created: t0,
		Cells: []string{"new-1", "1/1", "Running", "0", ""}})
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(h.text(), "new-1") {
		if time.Now().After(deadline) {
			t.Fatalf("the table never showed the new row:\n%s", h.text())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestNamespaceInputIsALabel: a namespace that is not a DNS-1123 label (.., a path, upper case) is refused
// in one line and the view stays where it was (".." would otherwise list every namespace through path
// cleaning).
func TestNamespaceInputIsALabel(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	for _, ns := range []string{"..", "a/b", "Shop"} {
		h.typeText(":ns " + ns + "\n")
		h.contains(`invalid namespace "` + ns + `"`)
		h.contains("pods(shop)[3]")
	}
}

func TestNamespaces(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	h.press(tcell.KeyRune, '0')
	h.contains("pods(all)[4]")
	h.contains("NAMESPACE")
	h.typeText(":ns data\n")
	h.contains("pods(data)[1]")
	h.typeText(":ns\n")
	h.contains("namespaces[2]")
	h.press(tcell.KeyDown, 0) // data, shop → shop
	h.press(tcell.KeyEnter, 0)
	h.contains("pods(shop)[3]")
	h.contains("Namespace: shop")
}

func TestAgeTickRedraws(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.Tick = time.Second })
	h.contains("5m")
	h.waitClockWaiter() // the table's ticker
	h.advance(time.Minute)
	waitFor(t, h, "6m")
}

func TestRedrawsAreBatchedAndIdleIsQuiet(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods"; o.MinRedraw = 50 * time.Millisecond })
	src := h.cluster.lastSource()
	count := h.countDraws()
	base := count() // the draw that followed installing the counter
	h.advance(time.Hour)
	h.quietly(func() {})
	if n := count() - base; n != 0 {
		t.Errorf("%d redraws in an idle hour (AGE tick off)", n)
	}
	for i := 0; i < 200; i++ {
		src.Put(&watch.Row{Key: fmt.Sprintf("shop/burst-%03d", i), Namespace: "shop", Name: fmt.Sprintf("burst-%03d", i),
			Created: t0, Cells: []string{fmt.Sprintf("burst-%03d", i), "1/1", "Running", "0", ""}})
	}
	// The first change after the quiet hour is drawn at once; the rest wait until MinRedraw has passed (unless
	// the UI goroutine took all 200 as one change: on a loaded machine it may not run until the loop has ended).
	shownNow := func() (n int) {
		h.quietly(func() { n = h.app.top().(*livetable.Table).Shown() })
		return n
	}
	deadline := time.Now().Add(uiWait)
	for !h.clk.HasWaiters() && shownNow() != 203 {
		if time.Now().After(deadline) {
			t.Fatalf("neither drawn nor waiting for MinRedraw %v after 200 changes", uiWait)
		}
		time.Sleep(time.Millisecond)
	}
	burst := count() - base
	if burst > 2 {
		t.Errorf("%d redraws for 200 changes within one MinRedraw; want at most 2", burst)
	}
	h.advance(50 * time.Millisecond)
	deadline = time.Now().Add(uiWait)
	for shown := 0; shown != 203; { // read without drawing: the count is of the table's own redraws
		shown = shownNow()
		if time.Now().After(deadline) {
			t.Fatalf("%d rows shown %v after MinRedraw passed, want 203", shown, uiWait)
		}
	}
	if n := count() - base; n > burst+1 {
		t.Errorf("%d redraws after MinRedraw passed (%d before); want one more", n, burst)
	}
}

func TestPlaceholders(t *testing.T) {
	h := start(t, 100, 30, func(o *Options) { o.Resource = "pods" })
	src := h.cluster.lastSource()
	h.typeText("/nothing-matches\n")
	h.contains("no rows match the filter (esc clears it)")
	src.SetState(watch.State{Phase: watch.Forbidden, Message: `pods is forbidden: User "viewer" cannot list resource "pods"`})
	for _, r := range src.Snapshot(watch.Query{SortColumn: -1}).Rows {
		src.Delete(r.Key)
	}
	h.refresh()
	h.advance(4 * time.Second) // past the deleted rows' dimmed moment
	h.press(tcell.KeyEscape, 0)
	h.golden("forbidden_100x30")
	h.command("wd")
	h.contains("no widgets here")
}

func TestOffScreenChangesDoNotRedraw(t *testing.T) {
	t.Run("quiet", func(t *testing.T) { testOffScreenChangesDoNotRedraw(t, false) })
	// A busy source's event rate (the pulse note of the status line) reads differently at every refresh: it
	// is taken at the once-a-second tick only, or every change anywhere would redraw the whole screen.
	t.Run("busy", func(t *testing.T) { testOffScreenChangesDoNotRedraw(t, true) })
}

func testOffScreenChangesDoNotRedraw(t *testing.T, busy bool) {
	h := start(t, 100, 30, func(o *Options) {
		o.Resource = "pods"
		o.Cluster.(*fakeCluster).pulsing = busy
	})
	src := h.cluster.lastSource()
	row := func(i int, status string) *watch.Row {
		name := fmt.Sprintf("many-%03d", i)
		return &watch.Row{Key: "shop/" + name, Namespace: "shop", Name: name, Created: t0,
			Cells: []string{name, "1/1", status, "0", ""}}
	}
	for i := range 60 {
		src.Put(row(i, "Running"))
	}
	waitFor(t, h, "pods(shop)[63]")
	var table *livetable.Table
	h.quietly(func() { table = h.app.top().(*livetable.Table) })
	// The table asks the server which verbs the user may use (off the UI goroutine); each answer redraws the
	// status line. On a loaded machine they can come after the rows: the draws are counted once they are in.
	h.until("answers to the table's access questions", func() bool { return table.Host().(*tableHost).access.Asking() == 0 })
	count := h.countDraws()
	// drained waits until the table shows r (its refresh has taken the change), then for the draw it did.
	drained := func(r *watch.Row) {
		h.until("the table taking the change", func() bool {
			got, ghost := table.Row(r.Key)
			return got == r && !ghost
		})
		h.sync() // the draw that refresh scheduled, if any, has happened
	}
	base := count()
	changed := row(55, "Failed")
	src.Put(changed) // far below the screen
	drained(changed)
	if n := count() - base; n != 1 { // the draw of h.sync only
		t.Errorf("%d draws for a change off screen, want none besides the sync", n-1)
	}
	base = count()
	changed = row(1, "Failed")
	src.Put(changed) // on screen
	drained(changed)
	if n := count() - base; n != 2 {
		t.Errorf("%d draws for a change on screen, want 1 (+1 sync)", n-1)
	}
	h.contains("many-001         1/1     Failed")
}
