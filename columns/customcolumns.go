// Package columns turns column specifications into the columns of an object view (watch.ObjectColumn):
// kubectl's `-o custom-columns=SPEC` and `-o custom-columns-file=FILE`, parsed by kubectl's rules (spec.go),
// and the column definitions of k9s's views.yaml (NAME, or NAME:JSONPATH|FLAGS). It keeps no state; every
// function is safe for concurrent use.
package columns

import (
	"fmt"
	"os"
	"strings"

	"kscope/watch"
)

// Output formats of -o that give an object view.
const (
	customColumns     = "custom-columns"
	customColumnsFile = "custom-columns-file"
)

// IsOutput tells whether value (what follows -o) names a custom-columns format.
func IsOutput(value string) bool {
	format, _, _ := strings.Cut(value, "=")
	return format == customColumns || format == customColumnsFile
}

// FromOutput returns the columns an -o value gives, as kubectl reads it: custom-columns=SPEC, or
// custom-columns-file=FILE (a header line and a line of JSONPath templates). Any other format is an error that
// says which ones kscope takes.
func FromOutput(value string) ([]watch.ObjectColumn, error) {
	format, arg, _ := strings.Cut(value, "=")
	switch format {
	case customColumns:
		return FromSpec(arg)
	case customColumnsFile:
		return FromFile(arg)
	}
	return nil, fmt.Errorf("unsupported output format %q: kscope shows -o custom-columns=SPEC or -o custom-columns-file=FILE", value)
}

// FromSpec parses kubectl's custom-columns SPEC (HEADER:JSONPATH,…) as kubectl does and compiles each
// column's JSONPath.
func FromSpec(spec string) ([]watch.ObjectColumn, error) {
	cols, err := parseSpec(spec)
	if err != nil {
		return nil, err // kubectl's words, which name custom-columns
	}
	return compile(cols)
}

// FromFile reads a custom-columns template file as kubectl does.
func FromFile(path string) ([]watch.ObjectColumn, error) {
	if path == "" {
		return nil, fmt.Errorf("custom-columns-file: no file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("custom-columns-file: %w", err)
	}
	defer f.Close()
	cols, err := parseTemplate(f)
	if err != nil {
		return nil, fmt.Errorf("custom-columns-file %s: %w", path, err)
	}
	return compile(cols)
}

// compile turns parsed columns into object columns.
func compile(cols []column) ([]watch.ObjectColumn, error) {
	out := make([]watch.ObjectColumn, 0, len(cols))
	for _, c := range cols {
		oc, err := watch.JSONPathColumn(c.header, c.fieldSpec)
		if err != nil {
			return nil, fmt.Errorf("custom-columns: %w", err)
		}
		out = append(out, oc)
	}
	return out, nil
}
