package ui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SaveFile implements Navigator: it writes data to a new file name under Options.SaveDir/kind (created as
// needed, private to the user) and returns its path.
func (a *App) SaveFile(kind, name string, data []byte) (string, error) {
	dir := filepath.Join(a.opts.SaveDir, kind)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	name = strings.NewReplacer("/", "_", string(os.PathSeparator), "_").Replace(name)
	ext := filepath.Ext(name)
	var f *os.File
	var path string
	for n := 1; f == nil; n++ { // a new file: name, else name-2, name-3 …
		path = filepath.Join(dir, name)
		if n > 1 {
			path = filepath.Join(dir, fmt.Sprintf("%s-%d%s", strings.TrimSuffix(name, ext), n, ext))
		}
		var err error
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil && (!errors.Is(err, fs.ErrExist) || n >= 1000) {
			return "", err
		}
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return "", err
	}
	return path, f.Close()
}
