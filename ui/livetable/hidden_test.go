package livetable

import (
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"

	"kscope/discovery"
	"kscope/ui/keymap"
	"kscope/watch"
)

// TestHiddenRows: rows of a hidden kind leave the table (its title counts them, its status names the key),
// live as they come and go; the key shows them, again hides them; the text filter applies either way.
func TestHiddenRows(t *testing.T) {
	cols := []watch.Column{{Name: "Name", Format: "name"}, {Name: "Type"}}
	secret := func(name, typ string) *watch.Row {
		return &watch.Row{Namespace: "shop", Name: name, Cells: []string{name, typ}}
	}
	src := watch.NewStaticSource(watch.Spec{Namespaced: true, Namespace: "shop"}, cols,
		secret("api", "Opaque"), secret("sh.helm.release.v1.web.v1", "helm.sh/release.v1"), secret("tls", "kubernetes.io/tls"))
	key := keymap.NewKey("storage", keymap.Shifted('Z'), "show the storage")
	secrets := discovery.Resource{Version: "v1", Name: "secrets", Kind: "Secret", Namespaced: true}
	var table *Table
	var h *fakeHost
	table, h = newTable(t, secrets, src)
	h.run(func() {
		table.SetHidden([]Hidden{{Key: key, What: "release Secrets", Hide: func(cols []watch.Column, r *watch.Row) bool {
			return r.Cells[1] == "helm.sh/release.v1"
		}}})
		table.refresh()
	})
	waitNames(t, h, "api", "tls")
	var title, status string
	h.run(func() { title, status = table.table.GetTitle(), table.Status() })
	if !strings.Contains(title, "[2]") || !strings.Contains(title, "<1 hidden>") || !strings.Contains(status, "1 release Secrets hidden (shift-z: show)") {
		t.Errorf("title %q, status %q: want the count hidden and the key", title, status)
	}

	src.Put(secret("sh.helm.release.v1.web.v2", "helm.sh/release.v1"), secret("db", "Opaque"))
	waitNames(t, h, "api", "db", "tls")

	h.press(tcell.KeyRune, 'Z')
	waitNames(t, h, "api", "db", "sh.helm.release.v1.web.v1", "sh.helm.release.v1.web.v2", "tls")
	h.press(tcell.KeyRune, '/')
	h.reply("web")
	waitNames(t, h, "sh.helm.release.v1.web.v1", "sh.helm.release.v1.web.v2")
	h.press(tcell.KeyRune, 'Z')
	waitNames(t, h)
	h.run(func() { status = table.Status() })
	if !strings.Contains(status, "2 release Secrets hidden") {
		t.Errorf("status %q", status)
	}
}
