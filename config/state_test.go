package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStateRoundTrip: what RememberView writes, LoadState reads, per context; a context's entry replaced
// leaves the others; the file is only kscope's state.yaml (no temporary file left).
func TestStateRoundTrip(t *testing.T) {
	d := Dirs{KScope: filepath.Join(t.TempDir(), "kscope")} // created on the first write
	if s, err := LoadState(d); err != nil || len(s.Contexts) != 0 {
		t.Fatalf("no file: %+v, %v; want nothing and no error", s, err)
	}
	steps := []struct {
		context string
		view    LastView
	}{
		{"admin", LastView{Resource: "deployments.apps", Namespace: "shop"}},
		{"viewer", LastView{Resource: "pods", Namespace: "all"}},
		{"admin", LastView{Resource: "statefulsets.apps", Namespace: "data"}},
		{"", LastView{Resource: "pods", Namespace: "x"}},       // no context: not written
		{"viewer", LastView{Resource: "", Namespace: "other"}}, // nothing opened: not written
	}
	for _, s := range steps {
		if err := RememberView(d, s.context, s.view, nil); err != nil {
			t.Fatalf("RememberView(%q, %+v): %v", s.context, s.view, err)
		}
	}
	s, err := LoadState(d)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]LastView{
		"admin":  {Resource: "statefulsets.apps", Namespace: "data"},
		"viewer": {Resource: "pods", Namespace: "all"},
	}
	if len(s.Contexts) != len(want) {
		t.Errorf("contexts %+v, want %+v", s.Contexts, want)
	}
	for ctx, v := range want {
		if !s.Contexts[ctx].equal(v) {
			t.Errorf("context %s: %+v, want %+v", ctx, s.Contexts[ctx], v)
		}
	}
	entries, err := os.ReadDir(d.KScope)
	if err != nil || len(entries) != 1 || entries[0].Name() != StateFileName {
		t.Errorf("kscope's folder holds %v (%v), want only %s", entries, err, StateFileName)
	}
}

// TestStateUnreadable: a state file that is not YAML, or not a file, is one Problem naming it and the zero
// State; the next write replaces a bad file.
func TestStateUnreadable(t *testing.T) {
	tests := []struct {
		name  string
		setup func(path string)
	}{
		{"not YAML", func(path string) { os.WriteFile(path, []byte("contexts: [unclosed\n"), 0o600) }},
		{"the wrong shape", func(path string) { os.WriteFile(path, []byte("contexts: 3\n"), 0o600) }},
		{"a folder", func(path string) { os.Mkdir(path, 0o700) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Dirs{KScope: t.TempDir()}
			path := filepath.Join(d.KScope, StateFileName)
			tt.setup(path)
			s, err := LoadState(d)
			if err == nil || len(s.Contexts) != 0 {
				t.Fatalf("got %+v, %v; want a problem and nothing", s, err)
			}
			if lines := Lines(err); len(lines) != 1 || !strings.HasPrefix(lines[0], path+": ") {
				t.Errorf("problem %q, want one line naming %s", lines, path)
			}
			if tt.name == "a folder" {
				return
			}
			if err := RememberView(d, "admin", LastView{Resource: "pods", Namespace: "web"}, nil); err != nil {
				t.Fatal(err)
			}
			if s, err := LoadState(d); err != nil || s.Contexts["admin"].Namespace != "web" {
				t.Errorf("after a write: %+v, %v", s, err)
			}
		})
	}
}

// TestStateFavorites: the favourite namespaces of every context a session visited are kept beside the last
// view, in their order, at most MaxFavorites; a view remembered later keeps them; an empty context is
// skipped.
func TestStateFavorites(t *testing.T) {
	d := Dirs{KScope: t.TempDir()}
	ten := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	steps := []struct {
		context string
		view    LastView
		favs    map[string][]string
	}{
		{"admin", LastView{Resource: "pods", Namespace: "shop"}, map[string][]string{"admin": {"shop", "web"}, "viewer": ten, "": {"x"}}},
		{"admin", LastView{Resource: "deployments.apps", Namespace: "web", Favorites: []string{"ignored"}}, nil},
	}
	for _, s := range steps {
		if err := RememberView(d, s.context, s.view, s.favs); err != nil {
			t.Fatal(err)
		}
	}
	s, err := LoadState(d)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]LastView{
		"admin":  {Resource: "deployments.apps", Namespace: "web", Favorites: []string{"shop", "web"}},
		"viewer": {Favorites: ten[:MaxFavorites]},
	}
	if len(s.Contexts) != len(want) {
		t.Errorf("contexts %+v, want %+v", s.Contexts, want)
	}
	for ctx, v := range want {
		if !s.Contexts[ctx].equal(v) {
			t.Errorf("context %s: %+v, want %+v", ctx, s.Contexts[ctx], v)
		}
	}
}
