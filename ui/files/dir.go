package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultDir is where ctrl-s writes when no save folder is chosen (ui.Options.SaveDir, --save-dir): kscope's XDG state folder,
// $XDG_STATE_HOME/kscope, else ~/.local/state/kscope ("" when neither is known: a relative $XDG_STATE_HOME is
// ignored, as the XDG spec asks, and the home folder may be unknown). It is created, private to the user, when
// first written to. Safe for concurrent use.
func DefaultDir() string {
	if state := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(state) {
		return filepath.Join(state, "kscope")
	}
	home, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(home) {
		return ""
	}
	return filepath.Join(home, ".local", "state", "kscope")
}

// openPrivateDir opens folder dir (a path, or a name in parent when parent is not nil) as an os.Root, creating
// it (mode 0700, with its missing parents) when it does not exist. It refuses, with one line naming dir, a
// dir that is a symbolic link or not a folder, and (where the system says: privateDirProblem) one owned by
// another user or that others may write to: a folder someone else could have planted. The folder opened is
// the one checked (else an error). The caller closes the Root.
func openPrivateDir(parent *os.Root, dir string) (*os.Root, error) {
	lstat, mkdirAll, openRoot := os.Lstat, os.MkdirAll, os.OpenRoot
	shown := dir
	if parent != nil {
		lstat, mkdirAll, openRoot = parent.Lstat, parent.MkdirAll, parent.OpenRoot
		shown = filepath.Join(parent.Name(), dir)
	}
	fi, err := lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := mkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create the save folder %s: %w", shown, err)
		}
		fi, err = lstat(dir)
	}
	if err != nil {
		return nil, fmt.Errorf("save folder %s: %w", shown, err)
	}
	if err := refusedDir(shown, fi); err != nil {
		return nil, err
	}
	root, err := openRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("open the save folder %s: %w", shown, err)
	}
	if opened, err := root.Stat("."); err != nil || !os.SameFile(fi, opened) {
		_ = root.Close()
		return nil, fmt.Errorf("the save folder %s was replaced while kscope opened it; nothing was written", shown)
	}
	return root, nil
}

// refusedDir returns why kscope does not write in folder path whose Lstat is fi, or nil.
func refusedDir(path string, fi fs.FileInfo) error {
	why := ""
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		why = "is a symbolic link"
	case !fi.IsDir():
		why = "is not a folder"
	default:
		why = privateDirProblem(fi)
	}
	if why == "" {
		return nil
	}
	return fmt.Errorf("the save folder %s %s; kscope writes only in a folder of yours that no one else can write to: nothing was written (fix it, or choose another with --save-dir)", path, why)
}

// Save writes data to a new file under dir/kind, named name (a path separator in it becomes "_"; a name
// taken: name-2, name-3 …), and returns its path. Both folders are created as needed, private to the user
// (mode 0700); one that exists is used only if no one else could have planted it or may write in it
// (openPrivateDir), else nothing is written. dir "" is an error. Safe for concurrent use (a new file each
// call).
func Save(dir, kind, name string, data []byte) (string, error) {
	if dir == "" {
		return "", errors.New("no save folder: set $XDG_STATE_HOME or $HOME, or choose one with --save-dir")
	}
	top, err := openPrivateDir(nil, dir)
	if err != nil {
		return "", err
	}
	defer top.Close()
	root, err := openPrivateDir(top, kind)
	if err != nil {
		return "", err
	}
	defer root.Close()
	name = strings.NewReplacer("/", "_", string(os.PathSeparator), "_").Replace(name)
	ext := filepath.Ext(name)
	var f *os.File
	var file string
	for n := 1; f == nil; n++ { // a new file: name, else name-2, name-3 …
		file = name
		if n > 1 {
			file = fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext)
		}
		f, err = root.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && (!errors.Is(err, fs.ErrExist) || n >= 1000) {
			return "", err
		}
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return "", err
	}
	return filepath.Join(dir, kind, file), f.Close()
}
