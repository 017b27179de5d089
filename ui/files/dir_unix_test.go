//go:build unix

package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSavePrivateModes: the folders Save creates are 0700 and its files 0600.
func TestSavePrivateModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "kscope")
	path, err := Save(dir, "logs", "web.log", []byte("x"))
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Dir(path): 0o700, path: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %04o", p, fi.Mode().Perm(), err, want)
		}
	}
}

// TestSaveRefusesPlantedFolders: a save folder, or its kind's folder, that is a symbolic link or that
// others may write to is refused with one line naming it, and nothing is written anywhere.
func TestSaveRefusesPlantedFolders(t *testing.T) {
	tests := []struct {
		name  string
		plant func(t *testing.T, save, elsewhere string) string // returns the folder refused
		want  string
	}{
		{"save folder is a symlink", func(t *testing.T, save, elsewhere string) string {
			must(t, os.Symlink(elsewhere, save))
			return save
		}, "is a symbolic link"},
		{"kind folder is a symlink", func(t *testing.T, save, elsewhere string) string {
			must(t, os.Mkdir(save, 0o700))
			must(t, os.Symlink(elsewhere, filepath.Join(save, "tables")))
			return filepath.Join(save, "tables")
		}, "is a symbolic link"},
		{"save folder writable by everyone", func(t *testing.T, save, _ string) string {
			must(t, os.Mkdir(save, 0o700))
			must(t, os.Chmod(save, 0o777))
			return save
		}, "may be written by others (mode 0777)"},
		{"kind folder writable by its group", func(t *testing.T, save, _ string) string {
			must(t, os.MkdirAll(filepath.Join(save, "tables"), 0o700))
			must(t, os.Chmod(filepath.Join(save, "tables"), 0o770))
			return filepath.Join(save, "tables")
		}, "may be written by others (mode 0770)"},
		{"save folder is a file", func(t *testing.T, save, _ string) string {
			must(t, os.WriteFile(save, nil, 0o600))
			return save
		}, "is not a folder"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			save, elsewhere := filepath.Join(base, "kscope"), filepath.Join(base, "elsewhere")
			must(t, os.Mkdir(elsewhere, 0o700))
			refused := tt.plant(t, save, elsewhere)
			path, err := Save(save, "tables", "pods.csv", []byte("x"))
			want := "the save folder " + refused + " " + tt.want + "; "
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Save = %q, %v; want an error beginning %q", path, err, want)
			}
			var written []string
			_ = filepath.Walk(base, func(p string, fi os.FileInfo, _ error) error {
				if fi != nil && fi.Mode().IsRegular() && fi.Size() > 0 {
					written = append(written, p)
				}
				return nil
			})
			if len(written) > 0 {
				t.Errorf("written: %q", written)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSaveRefusesAnotherUsersFolder: a save folder owned by another user is refused (giving a folder to
// another user needs root: the test says so and is skipped otherwise).
func TestSaveRefusesAnotherUsersFolder(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("giving the folder to another user needs root")
	}
	save := filepath.Join(t.TempDir(), "kscope")
	must(t, os.Mkdir(save, 0o700))
	must(t, os.Chown(save, 65534, 65534))
	_, err := Save(save, "tables", "pods.csv", []byte("x"))
	want := "the save folder " + save + " belongs to user id 65534, not to you (0); "
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("Save: %v; want an error beginning %q", err, want)
	}
	if entries, _ := os.ReadDir(save); len(entries) > 0 {
		t.Errorf("written in the folder: %v", entries)
	}
}
