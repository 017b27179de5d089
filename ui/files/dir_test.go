package files

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDefaultSaveDir: the save folder is kscope's XDG state folder: $XDG_STATE_HOME/kscope, else
// ~/.local/state/kscope (a relative $XDG_STATE_HOME is ignored, as the XDG spec asks).
func TestDefaultSaveDir(t *testing.T) {
	home := filepath.Join(t.TempDir(), "home")
	state := filepath.Join(t.TempDir(), "state")
	tests := []struct {
		name, xdg, want string
	}{
		{"XDG_STATE_HOME", state, filepath.Join(state, "kscope")},
		{"HOME", "", filepath.Join(home, ".local", "state", "kscope")},
		{"relative XDG_STATE_HOME", "state", filepath.Join(home, ".local", "state", "kscope")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("HOME", home)
			t.Setenv("USERPROFILE", home) // os.UserHomeDir on Windows
			t.Setenv("XDG_STATE_HOME", tt.xdg)
			if got := DefaultDir(); got != tt.want {
				t.Errorf("DefaultDir() = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSaveCreatesPrivateFolders: a save folder that does not exist is created with its kind's folder,
// private to the user; the file is new each time (name, then name-2).
func TestSaveCreatesPrivateFolders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "kscope")
	for _, want := range []string{"pods.csv", "pods-2.csv"} {
		path, err := Save(dir, "tables", "pods.csv", []byte("NAME\n"))
		if err != nil {
			t.Fatal(err)
		}
		if path != filepath.Join(dir, "tables", want) {
			t.Errorf("saved to %s, want %s", path, filepath.Join(dir, "tables", want))
		}
		if data, err := os.ReadFile(path); err != nil || string(data) != "NAME\n" {
			t.Errorf("%s: %q, %v", path, data, err)
		}
	}
	if _, err := Save("", "tables", "pods.csv", nil); err == nil {
		t.Error("no save folder: the file was written somewhere")
	}
}
