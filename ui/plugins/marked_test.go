package plugins

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kscope/config"
)

// markedSubject is a screen of pods with rows marked (none: the selected one, web-1, is acted on).
type markedSubject struct {
	subject
	marked []string
}

func (s markedSubject) PluginMarked() (whats []string, envs []map[string]string) {
	for _, n := range s.marked {
		whats = append(whats, "pods "+n)
		envs = append(envs, map[string]string{"NAME": n, "NAMESPACE": "shop"})
	}
	return whats, envs
}

// noScreen is the fake host without a screen to suspend: a foreground plugin runs as it is.
type noScreen struct{ *fakeHost }

func (noScreen) Suspend(func()) bool { return false }

// TestPluginOnMarkedRows: a plugin runs once per marked row, after one question listing them when it
// confirms; a row whose variable a shell could read as code refuses the whole run, naming it; foreground
// runs end with one line naming those that failed; without marks it acts on the selected row.
func TestPluginOnMarkedRows(t *testing.T) {
	dir := t.TempDir()
	touch := config.Plugin{Name: "touch", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Confirm: true, Args: []string{"-c", "touch " + dir + "/$NAME"}}
	h := &fakeHost{}
	s, _ := New(noScreen{h}, []config.Plugin{touch}, nil)
	_, normal := s.Bindings(markedSubject{subject{"web-1"}, []string{"a", "b", "c"}})
	normal[0].Run()
	if want := "Run plugin touch on 3 rows?\npods a\npods b\npods c\nsh -c touch " + dir + "/a (the first)"; h.question != want {
		t.Fatalf("question %q, want %q", h.question, want)
	}
	h.do()
	s.Wait()
	for _, n := range []string{"a", "b", "c"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("not run on %s: %v", n, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "web-1")); err == nil {
		t.Error("run on the selected row too")
	}

	h.question = ""
	_, normal = s.Bindings(markedSubject{subject{"web-1"}, []string{"a", "x'; touch " + dir + "/p; echo '"}})
	normal[0].Run()
	if !strings.HasPrefix(h.line, "error: plugin touch not run: pods x'; touch") || h.question != "" {
		t.Errorf("shell text in a row: line %q, question %q", h.line, h.question)
	}

	check := config.Plugin{Name: "check", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh",
		Args: []string{"-c", "test $NAME != b"}}
	s, _ = New(noScreen{h}, []config.Plugin{check}, nil)
	_, normal = s.Bindings(markedSubject{subject{"web-1"}, []string{"a", "b", "c"}})
	normal[0].Run()
	if h.line != "error: plugin check done on 2 of 3 rows; failed: pods b (exit status 1)" {
		t.Errorf("foreground: line %q", h.line)
	}
	_, normal = s.Bindings(markedSubject{subject: subject{"b"}})
	normal[0].Run()
	if !strings.HasPrefix(h.line, "error: plugin check: exit status 1") {
		t.Errorf("no marks, the selected row b: line %q", h.line)
	}
}
