package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"kscope/ui"
)

var update = flag.Bool("update", false, "rewrite README.md's key tables")

// The markers around README.md's generated key table.
const (
	keysBegin = "<!-- keys:begin: generated from ui/keymap/table.go and the registered screens' specs (cli/screens.go) by `go generate ./cli`; edit them there -->"
	keysEnd   = "<!-- keys:end -->"
)

// keysMarkdown is README.md's key table, from the whole key table of the app kscope runs
// (ui.KeyFamilies of the registered screens): a row per key under a row per family.
func keysMarkdown() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder // blank lines around it, so that the markers never join the table
	b.WriteString("\n| Key | Name (keys.yaml) | What it does |\n| --- | --- | --- |\n")
	for _, f := range ui.KeyFamilies(registered()) {
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
// (`go generate ./cli`) it is rewritten.
func TestREADMEKeys(t *testing.T) {
	const path = "../README.md"
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
	t.Errorf("README.md's key table is not ui/keymap/table.go's and the registered screens' (first difference: %s); regenerate it: go generate ./cli",
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
