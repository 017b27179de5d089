package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Template is a text of jumps.yaml that may refer to fields of the object a jump starts from:
// `app={{.metadata.name}}`. It is data, never code: a reference is a dotted path into the object and nothing
// else may stand in braces (no functions, pipes or other actions of Go's text/template), so that what the
// cluster holds is only ever substituted, as a value, where a reference stands.
type Template struct {
	text  string
	parts []templatePart
}

// templatePart is literal text, or a reference (path set: the keys from the object's root).
type templatePart struct {
	literal string
	path    []string
}

// reference is what may stand in braces: a dotted path of keys (letters, digits, '_' and '-').
var reference = regexp.MustCompile(`^(\.[A-Za-z0-9_-]+)+$`)

// ParseTemplate parses text: literal text with `{{.a.b.c}}` references (spaces inside the braces allowed).
// Anything else in braces, a `{{` without its `}}` or a `}}` without its `{{` is an error.
func ParseTemplate(text string) (Template, error) {
	t := Template{text: text}
	rest := text
	for rest != "" {
		open := strings.Index(rest, "{{")
		if open < 0 {
			open = len(rest)
		}
		if strings.Contains(rest[:open], "}}") {
			return Template{}, fmt.Errorf("%q: }} without {{", text)
		}
		if open > 0 {
			t.parts = append(t.parts, templatePart{literal: rest[:open]})
		}
		if open == len(rest) {
			break
		}
		end := strings.Index(rest[open:], "}}")
		if end < 0 {
			return Template{}, fmt.Errorf("%q: {{ without }}", text)
		}
		inner := strings.TrimSpace(rest[open+2 : open+end])
		if !reference.MatchString(inner) {
			return Template{}, fmt.Errorf("%q: {{%s}} is not a field reference such as {{.metadata.name}}", text, inner)
		}
		t.parts = append(t.parts, templatePart{path: strings.Split(inner[1:], ".")})
		rest = rest[open+end+2:]
	}
	return t, nil
}

// String is the template as written.
func (t Template) String() string { return t.text }

// Empty tells whether the template is "".
func (t Template) Empty() bool { return t.text == "" }

// Refs are the template's references as written (.metadata.name), in order.
func (t Template) Refs() []string {
	var refs []string
	for _, p := range t.parts {
		if p.path != nil {
			refs = append(refs, refText(p.path))
		}
	}
	return refs
}

func refText(path []string) string { return "." + strings.Join(path, ".") }

// Expand substitutes each reference with the value obj holds there, passed through value (which refuses a
// value with an error, or escapes it); of names the object in errors ("widget w1"). A reference to a field
// obj lacks (or holds null), a mapping or a list is an error.
func (t Template) Expand(obj map[string]any, of string, value func(ref, v string) (string, error)) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.path == nil {
			b.WriteString(p.literal)
			continue
		}
		ref := refText(p.path)
		v, kind, ok := scalarAt(obj, p.path)
		switch {
		case !ok:
			return "", fmt.Errorf("%s not set on %s", ref, of)
		case kind != "":
			return "", fmt.Errorf("%s of %s is %s, not a single value", ref, of, kind)
		}
		var err error
		if v, err = value(ref, v); err != nil {
			return "", err
		}
		b.WriteString(v)
	}
	return b.String(), nil
}

// scalarAt is the value at path in obj as text: a string as it is, a number or a boolean as YAML writes it.
// ok is false when obj has nothing there (or null); kind names what is there instead of a single value ("a
// mapping", "a list").
func scalarAt(obj map[string]any, path []string) (text, kind string, ok bool) {
	var v any = obj
	for _, key := range path {
		m, isMap := v.(map[string]any)
		if !isMap {
			return "", "", false
		}
		if v = m[key]; v == nil {
			return "", "", false
		}
	}
	switch v := v.(type) {
	case string:
		return v, "", true
	case bool:
		return strconv.FormatBool(v), "", true
	case int64:
		return strconv.FormatInt(v, 10), "", true
	case int:
		return strconv.Itoa(v), "", true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), "", true
	case map[string]any:
		return "", "a mapping", true
	case []any:
		return "", "a list", true
	}
	return "", fmt.Sprintf("a %T", v), true
}
