package ui

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The markers around README.md's generated key table.
const (
	keysBegin = "<!-- keys:begin: generated from ui/keytable.go by `go generate ./ui`; edit the table there -->"
	keysEnd   = "<!-- keys:end -->"
)

// keysMarkdown is README.md's key table, from Keys: a row per key under a row per family.
func keysMarkdown() string {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder // blank lines around it, so that the markers never join the table
	b.WriteString("\n| Key | Name (keys.yaml) | What it does |\n| --- | --- | --- |\n")
	for _, f := range Keys.families() {
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
// (`go generate ./ui`) it is rewritten.
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
	t.Errorf("README.md's key table is not ui/keytable.go's (first difference: %s); regenerate it: go generate ./ui",
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

// keyID identifies a key by what the help shows of it.
func keyID(name, label, description string) string {
	return fmt.Sprintf("%s %s: %s", label, name, description)
}

// fromTable reports the keys of bs (kscope's own: not plugins or hotkeys, not remapped) that are not
// some Keys entry's name, key and description, and records in used the entries they are (keyID).
func fromTable(t *testing.T, where string, bs []Binding, used map[string]bool) {
	t.Helper()
	for _, b := range bs {
		if configured(b) {
			continue
		}
		found := false
		for _, f := range Keys.families() {
			for _, e := range f.Defs {
				if e.Name == b.Name && e.Description == b.Description && e.Key.Label == b.Label &&
					e.Key.Key == b.Key && e.Key.Rune == b.Rune {
					used[keyID(e.Name, e.Key.Label, e.Description)], found = true, true
				}
			}
		}
		if !found {
			t.Errorf("%s: key %s %q (%q) is not in Keys (keytable.go)", where, b.Label, b.Name, b.Description)
		}
	}
}
