package plugins

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

// goHost is the fake host whose Go runs fn on a goroutine of its own, as the app's does; Update runs fn
// under a lock.
type goHost struct {
	*fakeHost
	mu sync.Mutex
}

func (h *goHost) Go(fn func())     { go fn() }
func (h *goHost) Update(fn func()) { h.mu.Lock(); defer h.mu.Unlock(); fn() }

// TestBackgroundPluginsOnMarkedRowsTakeTurns: a background plugin on more marked rows than MaxBackground
// runs at most MaxBackground at once (each run writes how many were running when it started), and every
// row runs.
func TestBackgroundPluginsOnMarkedRowsTakeTurns(t *testing.T) {
	dir := t.TempDir()
	p := config.Plugin{Name: "slow", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Args: []string{"-c", "mkdir " + dir + "/$NAME.run; ls " + dir + " | grep -c '[.]run$' > " + dir + "/$NAME.count; sleep 1; rmdir " + dir + "/$NAME.run"}}
	h := &goHost{fakeHost: &fakeHost{}}
	s, _ := New(h, []config.Plugin{p}, nil)
	var rows []string
	for i := range 3 * MaxBackground {
		rows = append(rows, fmt.Sprintf("r%02d", i))
	}
	_, normal := s.Bindings(markedSubject{subject{"web-1"}, rows})
	normal[0].Run()
	h.mu.Lock()
	if want := fmt.Sprintf("running plugin slow on %d rows, %d at a time …", len(rows), MaxBackground); h.line != want {
		t.Errorf("line %q, want %q", h.line, want)
	}
	h.mu.Unlock()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(50 * time.Millisecond) {
		if _, running := s.Runs(); running == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the runs did not end in a minute")
		}
	}
	most := 0
	for _, r := range rows {
		data, err := os.ReadFile(filepath.Join(dir, r+".count"))
		if err != nil {
			t.Fatalf("row %s did not run: %v", r, err)
		}
		n, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		most = max(most, n)
	}
	if most > MaxBackground || most < 2 {
		t.Fatalf("at most %d ran at once, want 2..%d", most, MaxBackground)
	}
}
