package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// Problems are several Problems of one file, each its own line.
type Problems []Problem

// Error is the problems on one line, separated by "; ".
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "; ")
}

// Lines returns err as the lines a user reads: one per Problem of Problems, else err's text.
func Lines(err error) []string {
	var ps Problems
	if errors.As(err, &ps) {
		lines := make([]string, len(ps))
		for i, p := range ps {
			lines[i] = p.Error()
		}
		return lines
	}
	if err == nil {
		return nil
	}
	return []string{err.Error()}
}

// values is a configuration file read value by value, so that a value kscope cannot use costs itself
// only: each getter returns the zero value for it and records one Problem.
type values struct {
	f        File
	data     []byte
	doc      map[string]any
	problems Problems
	lines    []int           // each problem's line
	last     int             // the index of the problem said last
	said     map[string]bool // the paths of mappings found unusable (said once)
}

// readValues parses f (a missing file: no values). A file that cannot be read or parsed as a mapping is
// a Problem.
func readValues(f File) (*values, error) {
	v := &values{f: f, said: map[string]bool{}}
	if f.From == "" {
		return v, nil
	}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return v, nil
	}
	if err != nil {
		return nil, Problem{Path: f.Path, Text: "cannot be read (" + err.Error() + "); kscope starts read-only"}
	}
	v.data = data
	if err := yaml.Unmarshal(data, &v.doc); err != nil {
		return nil, Problem{Path: f.Path, Text: "cannot be parsed (" + yamlErrorText(data, err) + "); kscope starts read-only"}
	}
	return v, nil
}

// err is the problems found so far, nil when there are none.
func (v *values) err() error {
	switch len(v.problems) {
	case 0:
		return nil
	case 1:
		return v.problems[0]
	}
	return v.problems
}

// problem records what is wrong with the value at path, in the order of the file's lines.
func (v *values) problem(path, format string, args ...any) {
	text := path + ": " + fmt.Sprintf(format, args...)
	line := fieldLine(v.data, path)
	if line > 0 {
		text = fmt.Sprintf("line %d: %s", line, text)
	}
	at := len(v.problems)
	for at > 0 && v.lines[at-1] > line {
		at--
	}
	v.problems = slices.Insert(v.problems, at, Problem{Path: v.f.Path, Text: text})
	v.lines = slices.Insert(v.lines, at, line)
	v.last = at
}

// get decodes the value at path (dotted keys: k9s.logger.buffer) into into. ok is false when the file
// has no such value, or it cannot be used (then a problem says why, and that it is ignored).
func (v *values) get(path string, into any) (ok bool) {
	var node any = v.doc
	keys := strings.Split(path, ".")
	for i, key := range keys {
		if node == nil {
			return false
		}
		m, isMap := node.(map[string]any)
		if !isMap {
			at := strings.Join(keys[:i], ".")
			if !v.said[at] {
				v.said[at] = true
				v.problem(at, "want a mapping, not %s; ignored", jsonKind(node))
			}
			return false
		}
		node = lookup(m, key)
	}
	if node == nil {
		return false
	}
	raw, _ := json.Marshal(node)
	if err := json.Unmarshal(raw, into); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			v.problem(path, "want %s, not %s; ignored", typeWord(te.Type.String()), te.Value)
		} else {
			v.problem(path, "%s; ignored", err)
		}
		return false
	}
	return true
}

// lookup is m's value of key, matched as encoding/json matches field names (case-insensitively).
func lookup(m map[string]any, key string) any {
	if n, ok := m[key]; ok {
		return n
	}
	for k, n := range m {
		if strings.EqualFold(k, key) {
			return n
		}
	}
	return nil
}

// jsonKind names a decoded value's type as encoding/json's errors do.
func jsonKind(n any) string {
	switch n.(type) {
	case []any:
		return "array"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	}
	return "object"
}

func (v *values) boolean(path string) *bool {
	var b bool
	if !v.get(path, &b) {
		return nil
	}
	return &b
}

func (v *values) text(path string) string {
	var s string
	v.get(path, &s)
	return s
}

// readOnly reads the readOnly value at path; one that is there but not true or false forces read-only.
func (v *values) readOnly(path string) (readOnly *bool, force bool) {
	before := len(v.problems)
	if b := v.boolean(path); b != nil {
		return b, false
	}
	if len(v.problems) > before { // there, but unusable: fail closed
		p := &v.problems[v.last]
		p.Text = strings.TrimSuffix(p.Text, "; ignored") + "; kscope starts read-only"
		return ptr(true), true
	}
	return nil, false
}

// skin reads a skin's name: a file name in skins/, without folders.
func (v *values) skin(path string) string {
	s := v.text(path)
	if s != "" && !skinName.MatchString(s) {
		v.problem(path, "%q is not a skin's name (skins/NAME.yaml); ignored", s)
		return ""
	}
	return s
}

// logLines reads a line count within k9s's limits (1 to maxLogLines); 0 when not set or unusable.
func (v *values) logLines(path string) int {
	var n int64
	if !v.get(path, &n) {
		return 0
	}
	if n < 1 || n > maxLogLines {
		v.problem(path, "%d is not between 1 and %d; ignored", n, maxLogLines)
		return 0
	}
	return int(n)
}

// namespaces reads a list of namespace names (k9s's favourites), at most MaxFavorites, without repeats; a
// name that is not a namespace's is one problem and left out.
func (v *values) namespaces(path string) []string {
	var in []string
	if !v.get(path, &in) {
		return nil
	}
	var out []string
	for _, ns := range in {
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			v.problem(path, "%q is not a namespace: %s; ignored", ns, errs[0])
			continue
		}
		if !slices.Contains(out, ns) && len(out) < MaxFavorites {
			out = append(out, ns)
		}
	}
	return out
}
