package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"sigs.k8s.io/yaml"
)

// StateFileName is the file in kscope's own folder (Dirs.KScope) where kscope keeps what it remembers
// between sessions. kscope writes it itself; nobody needs to edit it.
const StateFileName = "state.yaml"

// State is what kscope remembers between sessions: per kubeconfig context, where the user left off. A plain
// value.
type State struct {
	// Contexts are by kubeconfig context name.
	Contexts map[string]LastView `json:"contexts,omitempty"`
}

// LastView is where a session in one context ended: the resource of its last table as a command names it
// ("deployments.apps", "deploy,sts") and its namespace ("all": every namespace; "" none remembered); and the
// context's favourite namespaces, as k9s keeps them (the namespaces switched to, the newest first, at most
// MaxFavorites; a namespace keeps its place once in).
type LastView struct {
	Resource  string   `json:"resource,omitempty"`
	Namespace string   `json:"namespace,omitempty"`
	Favorites []string `json:"favorites,omitempty"`
}

// MaxFavorites is how many favourite namespaces a context keeps (k9s's 9: keys 1 to 9).
const MaxFavorites = 9

// equal tells whether v and w are the same.
func (v LastView) equal(w LastView) bool {
	return v.Resource == w.Resource && v.Namespace == w.Namespace && slices.Equal(v.Favorites, w.Favorites)
}

// statePath is the state file's path: in kscope's own folder, never a path from the cluster.
func (d Dirs) statePath() string { return filepath.Join(d.KScope, StateFileName) }

// LoadState reads the state file. A missing file is the zero State and no error; a file that cannot be read or
// parsed is the zero State and a Problem (one line naming the file), which kscope says and otherwise ignores.
func LoadState(d Dirs) (State, error) {
	var s State
	if d.KScope == "" {
		return s, nil
	}
	f := File{Kind: "state", Path: d.statePath(), From: "kscope"}
	if err := read(f, &s); err != nil {
		return State{}, err
	}
	return s, nil
}

// RememberView records v as where the session in context ended and favorites as the favourite namespaces of
// each context they name (a session may have visited several; v.Favorites is ignored), keeping the other
// contexts' entries, and writes the state file atomically (a new file in the same folder, renamed over the
// old one), creating kscope's folder if needed. A state file that cannot be read is replaced. Nothing is
// recorded for an empty context, and no view for an empty resource. Two kscopes quitting at once each write
// a whole file: the last one's is kept.
func RememberView(d Dirs, context string, v LastView, favorites map[string][]string) error {
	if d.KScope == "" {
		return nil
	}
	s, _ := LoadState(d) // an unreadable file was said at start: it is replaced
	if s.Contexts == nil {
		s.Contexts = map[string]LastView{}
	}
	changed := false
	set := func(ctx string, next LastView) {
		if !s.Contexts[ctx].equal(next) {
			s.Contexts[ctx], changed = next, true
		}
	}
	for ctx, favs := range favorites {
		if ctx == "" {
			continue
		}
		next := s.Contexts[ctx]
		next.Favorites = slices.Clone(favs[:min(len(favs), MaxFavorites)])
		set(ctx, next)
	}
	if context != "" && v.Resource != "" {
		v.Favorites = s.Contexts[context].Favorites
		set(context, v)
	}
	if !changed {
		return nil
	}
	data, err := yaml.Marshal(s)
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return writeAtomic(d.statePath(), data)
}

// writeAtomic writes data to path through a temporary file in the same folder renamed over it, so that a
// reader sees the old file or the new one, never a part.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("state: %w", err)
	}
	defer func() {
		if err != nil {
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("state: write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("state: write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("state: %w", err)
	}
	return nil
}
