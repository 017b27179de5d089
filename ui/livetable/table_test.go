package livetable

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/watch"
)

// deployments is the resource of the tables tested: no metrics of its own.
var deployments = discovery.Resource{Group: "apps", Version: "v1", Name: "deployments", Kind: "Deployment", Namespaced: true}

// deploymentRows are three deployments of shop: NAME, READY and AGE (computed at draw time).
func deploymentSource() *watch.StaticSource {
	cols := []watch.Column{
		{Name: "Name", Type: "string", Format: "name"},
		{Name: "Ready", Type: "string"},
		{Name: "Age", Type: "string", Age: true},
		{Name: "Images", Type: "string", Priority: 1},
	}
	row := func(name, ready string, age time.Duration) *watch.Row {
		return &watch.Row{Namespace: "shop", Name: name, Created: t0.Add(-age), Cells: []string{name, ready, "", name + ":1"}}
	}
	return watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, cols,
		row("web", "2/2", time.Hour), row("api", "1/1", 3*time.Hour), row("cache", "0/1", 2*time.Hour))
}

// TestSortKeys: the table's own sort keys order its rows; the same sort again reverses it.
func TestSortKeys(t *testing.T) {
	tests := []struct {
		name string
		keys []rune
		want []string
	}{
		{"the source's order", nil, []string{"api", "cache", "web"}},
		{"by name", []rune{'N'}, []string{"api", "cache", "web"}},
		{"by name, again: reversed", []rune{'N', 'N'}, []string{"web", "cache", "api"}},
		{"by age (youngest first)", []rune{'A'}, []string{"web", "cache", "api"}},
		{"by age, reversed with !", []rune{'A', '!'}, []string{"api", "cache", "web"}},
		{"the next column: READY", []rune{'>', '>'}, []string{"cache", "api", "web"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, h := newTable(t, deployments, deploymentSource())
			for _, k := range tt.keys {
				h.press(tcell.KeyRune, k)
			}
			if got := h.names(); !slices.Equal(got, tt.want) {
				t.Errorf("rows %q, want %q", got, tt.want)
			}
		})
	}
}

// TestFilterKey: `/` asks for a filter on the prompt line; the rows that match stay, esc clears it, and a bad
// filter is said and changes nothing.
func TestFilterKey(t *testing.T) {
	table, h := newTable(t, deployments, deploymentSource())
	h.press(tcell.KeyRune, '/')
	if h.asked != "/" {
		t.Fatalf("asked %q, want the filter bar", h.asked)
	}
	h.reply("^(web|api)$")
	if got := h.names(); !slices.Equal(got, []string{"api", "web"}) {
		t.Errorf("filtered rows %q", got)
	}
	h.press(tcell.KeyRune, '/')
	h.reply("-l a=(")
	if len(h.errors) != 1 {
		t.Errorf("a bad selector: errors %q, want one", h.errors)
	}
	var cleared bool
	h.run(func() { cleared = table.Escape() })
	if got := h.names(); !cleared || len(got) != 3 {
		t.Errorf("after esc (used: %v): rows %q, want all three", cleared, got)
	}
}

// TestOpenGivesTheLiveRowToTheHost: enter hands the selected row to Host.Open; a row deleted moments ago
// (dimmed) is not opened, and the prompt line says why.
func TestOpenGivesTheLiveRowToTheHost(t *testing.T) {
	table, h := newTable(t, deployments, deploymentSource())
	h.press(tcell.KeyEnter, 0)
	if len(h.opened) != 1 || h.opened[0].Name != "api" {
		t.Fatalf("opened %v, want api (the first row)", h.opened)
	}
	// In one step of the UI goroutine, so that the table's own refresh (its source notified it) cannot move
	// the cursor off the dimmed row first.
	h.run(func() {
		table.Source().(*watch.StaticSource).Delete("shop/api")
		table.Refresh()
		table.table.Select(1, 0) // the cursor back on the row just deleted
		if row, ghost := table.Selected(); row == nil || row.Name != "api" || !ghost {
			t.Fatalf("selected %v (ghost %v), want api dimmed", row, ghost)
		}
		table.OpenBinding().Run()
	})
	if len(h.opened) != 1 || len(h.errors) != 1 || !strings.Contains(h.errors[0], "api was deleted") {
		t.Errorf("opened %v, errors %q; want no second open and the deletion said", h.opened, h.errors)
	}
}

// TestSaveWritesTheRowsAsShown: ctrl-s asks for a file name, then saves every live row as shown (the filter,
// the sort and the shown columns applied, AGE as on screen) as CSV or JSON; another extension is refused.
func TestSaveWritesTheRowsAsShown(t *testing.T) {
	tests := []struct {
		file, want string
	}{
		{"shown.csv", "NAME,READY,AGE\nweb,2/2,60m\ncache,0/1,120m\n"},
		{"shown.json", "[\n  {\"NAME\": \"web\", \"READY\": \"2/2\", \"AGE\": \"60m\"},\n" +
			"  {\"NAME\": \"cache\", \"READY\": \"0/1\", \"AGE\": \"120m\"}\n]\n"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, h := newTable(t, deployments, deploymentSource())
			h.press(tcell.KeyRune, '/')
			h.reply("web|cache")
			h.press(tcell.KeyRune, 'A')
			h.press(tcell.KeyCtrlS, 0)
			if !strings.HasPrefix(h.asked, "save the table as") {
				t.Fatalf("asked %q", h.asked)
			}
			h.reply(tt.file)
			if len(h.messages) != 1 || !strings.HasPrefix(h.messages[0], "saved 2 rows to ") {
				t.Fatalf("messages %q, errors %q", h.messages, h.errors)
			}
			data, err := os.ReadFile(strings.TrimPrefix(h.messages[0], "saved 2 rows to "))
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != tt.want {
				t.Errorf("saved\n%s\nwant\n%s", data, tt.want)
			}
		})
	}
	_, h := newTable(t, deployments, deploymentSource())
	h.press(tcell.KeyCtrlS, 0)
	h.reply("shown.txt")
	if len(h.errors) != 1 || len(h.messages) != 0 {
		t.Errorf("a .txt name: errors %q, messages %q; want it refused", h.errors, h.messages)
	}
}
