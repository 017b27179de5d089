package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SaveFile implements Navigator: it writes data to a new file name under Options.SaveDir/kind and returns its
// path. Both folders are created as needed, private to the user (mode 0700); one that exists is used only if
// no one else could have planted it or may write in it (openPrivateDir), else nothing is written.
func (a *App) SaveFile(kind, name string, data []byte) (string, error) {
	if a.opts.SaveDir == "" {
		return "", errors.New("no save folder: set $XDG_STATE_HOME or $HOME, or choose one with --save-dir")
	}
	top, err := openPrivateDir(nil, a.opts.SaveDir)
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
	return filepath.Join(a.opts.SaveDir, kind, file), f.Close()
}
