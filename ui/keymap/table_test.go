package keymap

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

var update = flag.Bool("update", false, "rewrite README.md's key tables")

// The markers around README.md's generated key table.
const (
	keysBegin = "<!-- keys:begin: generated from ui/keymap/table.go by `go generate ./ui/keymap`; edit the table there -->"
	keysEnd   = "<!-- keys:end -->"
)

// keysMarkdown is README.md's key table, from Keys: a row per key under a row per family.
func keysMarkdown() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder // blank lines around it, so that the markers never join the table
	b.WriteString("\n| Key | Name (keys.yaml) | What it does |\n| --- | --- | --- |\n")
	for _, f := range Keys.Families() {
		fmt.Fprintf(&b, "| **%s** | | |\n", cell(f.Title))
		for _, d := range f.Defs {
			name := d.Name
			if d.Fixed {
				name += " (fixed)"
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", cell(d.Key.Label), cell(name), cell(d.Description))
		}
	}
	return b.String() + "\n"
}

// TestREADMEKeys: README.md's key table, between keysBegin and keysEnd, is keysMarkdown's; with -update
// (`go generate ./ui/keymap`) it is rewritten.
func TestREADMEKeys(t *testing.T) {
	const path = "../../README.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	before, rest, ok1 := strings.Cut(readme, keysBegin+"\n")
	got, after, ok2 := strings.Cut(rest, keysEnd)
	if !ok1 || !ok2 {
		t.Fatalf("README.md has no %q … %q lines around its key table", keysBegin, keysEnd)
	}
	want := keysMarkdown()
	if got == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(before+keysBegin+"\n"+want+keysEnd+after), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("README.md's key table is not ui/keymap/table.go's (first difference: %s); regenerate it: go generate ./ui/keymap",
		firstLineDiff(got, want))
}

// firstLineDiff names the first line where got and want differ.
func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d is %q, want %q", i+1, gl, wl)
		}
	}
	return "none"
}

// TestBindingSame: what counts as the same key.
func TestBindingSame(t *testing.T) {
	run := func() {}
	tests := []struct {
		a, b Binding
		want bool
	}{
		{Char('e').Does("a", "", run), Char('e').Does("b", "", run), true},
		{Char('e').Does("a", "", run), Char('E').Does("b", "", run), false},
		{Char('e').Does("a", "", run), Shifted('E').Does("b", "", run), false},
		{Shifted('E').Does("a", "", run), Shifted('E').Does("b", "", run), true},
		{Key(tcell.KeyCtrlD, "ctrl-d").Does("a", "", run), Key(tcell.KeyCtrlD, "ctrl-d").Does("b", "", run), true},
		{Key(tcell.KeyCtrlD, "ctrl-d").Does("a", "", run), Key(tcell.KeyCtrlW, "ctrl-w").Does("b", "", run), false},
		{Key(tcell.KeyEnter, "enter").Does("a", "", run), Char('e').Does("b", "", run), false},
	}
	for _, tt := range tests {
		if got := tt.a.Same(tt.b); got != tt.want {
			t.Errorf("%s.Same(%s) = %v, want %v", tt.a.Label, tt.b.Label, got, tt.want)
		}
	}
}
