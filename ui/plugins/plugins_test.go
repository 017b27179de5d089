package plugins

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"kscope/cluster"
	"kscope/config"
	"kscope/ui/keymap"
)

// fakeConn is a connection with only its Info (any other call panics: the embedded interface is nil).
type fakeConn struct{ cluster.Interface }

func (fakeConn) Info() cluster.Info {
	return cluster.Info{Context: "kind-a", Cluster: "kind-a", User: "admin"}
}

// fakeHost runs goroutines and updates at once and keeps the prompt line and the question asked; any Host
// method not here panics.
type fakeHost struct {
	Host
	readOnly bool
	line     string
	question string
	do       func()
}

func (h *fakeHost) Context() context.Context                 { return context.Background() }
func (h *fakeHost) Go(fn func())                             { fn() }
func (h *fakeHost) Update(fn func())                         { fn() }
func (h *fakeHost) FlushNotices()                            {}
func (h *fakeHost) Cluster() cluster.Interface               { return fakeConn{} }
func (h *fakeHost) Kubeconfig() string                       { return "/children/kubeconfig" }
func (h *fakeHost) ReadOnly() bool                           { return h.readOnly }
func (h *fakeHost) ChildEnv(vars map[string]string) []string { return os.Environ() }
func (h *fakeHost) RefusalMark() int                         { return 0 }
func (h *fakeHost) RefusedSince(int) string                  { return "" }
func (h *fakeHost) Message(text string)                      { h.line = text }
func (h *fakeHost) Errorf(format string, args ...any) {
	h.line = "error: " + fmt.Sprintf(format, args...)
}
func (h *fakeHost) Confirm(question, _ string, do func()) { h.question, h.do = question, do }

// subject is a screen of pods whose selection is web-1.
type subject struct{ name string }

func (s subject) PluginScopes() []string { return []string{"pods", "pod", "Pod", "po"} }
func (s subject) PluginSubject() (string, map[string]string, bool) {
	return "pods " + s.name, map[string]string{"NAME": s.name, "NAMESPACE": "shop"}, true
}

func names(bs []keymap.Binding) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Name)
	}
	return out
}

// TestBindingsApplyByScope: a plugin applies where its scopes name the screen's resource (or all); those
// with override: true come apart from the others.
func TestBindingsApplyByScope(t *testing.T) {
	s, bad := New(&fakeHost{}, []config.Plugin{
		{Name: "mine", ShortCut: "Shift-K", Scopes: []string{"PO"}, Command: "true"},
		{Name: "deploys-only", ShortCut: "Shift-D", Scopes: []string{"deploy"}, Command: "true"},
		{Name: "everywhere", ShortCut: "Ctrl-T", Scopes: []string{"all"}, Command: "true", Override: true},
		{Name: "broken", ShortCut: "Hyper-Q", Scopes: []string{"all"}, Command: "true"},
	}, nil)
	if len(bad) != 1 {
		t.Errorf("bad %q, want the broken plugin's key said", bad)
	}
	override, normal := s.Bindings(subject{"web-1"})
	if got := names(override); !slices.Equal(got, []string{"plugin everywhere"}) {
		t.Errorf("override %q", got)
	}
	if got := names(normal); !slices.Equal(got, []string{"plugin mine"}) {
		t.Errorf("normal %q", got)
	}
}

// TestRunRefusesShellTextAndDangerInReadOnly: a variable a shell would read as code refuses the run in one
// line naming the plugin and the variable; a dangerous plugin is refused in read-only mode and asks first
// otherwise.
func TestRunRefusesShellTextAndDangerInReadOnly(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	say := config.Plugin{Name: "say", ShortCut: "Shift-K", Scopes: []string{"po"}, Command: "sh", Background: true,
		Args: []string{"-c", "echo '$NAME' > " + out}}
	h := &fakeHost{}
	s, _ := New(h, []config.Plugin{say}, nil)
	_, normal := s.Bindings(subject{"x'; touch " + out + ".p; echo '"})
	normal[0].Run()
	if !strings.HasPrefix(h.line, `error: plugin say not run: $NAME holds '\'', which a shell could read as code`) {
		t.Errorf("line %q", h.line)
	}
	if started, _ := s.runs.counts(); started != 0 {
		t.Fatalf("the plugin ran (%d started)", started)
	}
	if _, err := os.Stat(out + ".p"); err == nil {
		t.Fatal("the shell text ran")
	}

	rm := config.Plugin{Name: "rm", ShortCut: "Shift-R", Scopes: []string{"po"}, Command: "true", Dangerous: true}
	h = &fakeHost{readOnly: true}
	s, _ = New(h, []config.Plugin{rm}, nil)
	_, normal = s.Bindings(subject{"web-1"})
	normal[0].Run()
	if h.line != "error: read-only mode: refusing plugin rm (it is marked dangerous)" || h.question != "" {
		t.Errorf("read-only: line %q, question %q", h.line, h.question)
	}
	h.readOnly = false
	normal[0].Run()
	if h.question != "Run plugin rm on pods web-1?\ntrue" {
		t.Errorf("question %q", h.question)
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 8}
	writes := []string{"abc", "defgh", "ijklmnopqrstuvwxyz"}
	for range 100 {
		writes = append(writes, "1")
	}
	for _, s := range append(writes, "12") {
		_, _ = b.Write([]byte(s))
		if len(b.buf) > 2*b.max {
			t.Fatalf("holds %d bytes", len(b.buf))
		}
	}
	if got, note := b.tail(); got != "11111112" || note != " (output cut: kept the last 8 of 128 bytes)" {
		t.Fatalf("%q %q", got, note)
	}
	small := &tailBuffer{max: 8}
	_, _ = small.Write([]byte("ok\n"))
	if got, note := small.tail(); got != "ok\n" || note != "" {
		t.Fatalf("%q %q", got, note)
	}
}
