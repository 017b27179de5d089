package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// layoutRow is a row of README's Layout table: | `dir/` | what it owns |.
var layoutRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")

// TestREADMELayout: every folder of the module that holds a Go package is in README's Layout table, itself or
// under a listed folder that holds no package of its own (bench/ for its commands); every row names a folder
// that exists.
func TestREADMELayout(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	start := strings.Index(text, "## Layout")
	if start < 0 {
		t.Fatal("README has no Layout section")
	}
	section := text[start:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	var rows []string
	for _, m := range layoutRow.FindAllStringSubmatch(section, -1) {
		rows = append(rows, strings.TrimSuffix(m[1], "/"))
	}
	packages := goPackageDirs(t)
	for _, dir := range packages {
		if !covered(dir, rows, packages) {
			t.Errorf("README's Layout table has no row for %s/", dir)
		}
	}
	for _, row := range rows {
		if info, err := os.Stat(row); err != nil || !info.IsDir() {
			t.Errorf("README's Layout table names %s/, which is not a folder", row)
		}
	}
}

// covered tells whether dir has a row of its own, or is below a row's folder that holds no package itself.
func covered(dir string, rows, packages []string) bool {
	if slices.Contains(rows, dir) {
		return true
	}
	for _, row := range rows {
		if row != "." && strings.HasPrefix(dir, row+"/") && !slices.Contains(packages, row) {
			return true
		}
	}
	return false
}

// goPackageDirs returns the folders of this module (not devcluster's, a module of its own) holding non-test Go
// files, "." for the root; e2e/, which holds tests only, is listed when it has any Go file.
func goPackageDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "devcluster" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && (!strings.HasSuffix(path, "_test.go") || strings.HasPrefix(path, "e2e/")) {
			if dir := filepath.Dir(path); !slices.Contains(dirs, dir) {
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dirs
}
