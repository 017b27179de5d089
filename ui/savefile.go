package ui

import "kscope/ui/files"

// SaveFile implements Navigator: files.Save under Options.SaveDir.
func (a *App) SaveFile(kind, name string, data []byte) (string, error) {
	return files.Save(a.opts.SaveDir, kind, name, data)
}
