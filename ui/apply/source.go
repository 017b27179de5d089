package apply

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Source is one text of documents to apply: a file, or the editor's text, named as the messages name it.
type Source struct {
	Name string
	Data []byte
}

// ReadPath reads what `:apply PATH` names (relative to kscope's working directory): a file (named path), or
// a folder's files ending in .yaml, .yml or .json in name order, not its sub-folders (each named by its
// name in the folder). A folder without one is an error.
func ReadPath(path string) ([]Source, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return []Source{{Name: path, Data: data}}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if manifestName(e.Name()) && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("no .yaml, .yml or .json file in %s", path)
	}
	out := make([]Source, 0, len(names))
	for _, n := range names {
		p := filepath.Join(path, n)
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Source{Name: n, Data: data}) // (the messages name the folder, then the file)
	}
	return out, nil
}

// manifestName tells whether a folder's file named name is applied (.yaml, .yml, .json).
func manifestName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}
