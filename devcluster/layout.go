package main

import (
	"os"
	"path/filepath"
)

// layout names the files of one devcluster cache folder.
type layout struct {
	root string // the cache folder, e.g. <repo>/.cache/devcluster
}

func newLayout(root string) layout {
	abs, err := filepath.Abs(root)
	if err == nil {
		root = abs
	}
	return layout{root: root}
}

// defaultCacheDir is the folder that holds this executable when it was built into <cache>/bin, else
// .cache/devcluster under the working directory.
func defaultCacheDir() string {
	if exe, err := os.Executable(); err == nil {
		bin := filepath.Dir(exe)
		if filepath.Base(bin) == "bin" && filepath.Base(filepath.Dir(bin)) == "devcluster" {
			return filepath.Dir(bin)
		}
	}
	return filepath.Join(".cache", "devcluster")
}

func (l layout) bin(name string) string   { return filepath.Join(l.root, "bin", name) }
func (l layout) binDir() string           { return filepath.Join(l.root, "bin") }
func (l layout) state(name string) string { return filepath.Join(l.root, "state", name) }
func (l layout) stateDir() string         { return filepath.Join(l.root, "state") }
func (l layout) kubeconfig() string       { return l.state("kubeconfig") }
func (l layout) logFile(component string) string {
	return filepath.Join(l.root, "state", "logs", component+".log")
}

// source is the devcluster module's source folder: <repo>/devcluster beside <repo>/.cache.
func (l layout) source() string {
	if dir := os.Getenv("KSCOPE_DEVCLUSTER_SRC"); dir != "" {
		return dir
	}
	return filepath.Join(filepath.Dir(filepath.Dir(l.root)), "devcluster")
}
