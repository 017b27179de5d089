package logs

import (
	"bytes"
	"encoding/json"
	"strings"
)

// JSONMode is how a logs view shows the lines that are JSON objects (structured logs); the lines as read
// are kept whatever the mode (copy and save use them).
type JSONMode int

const (
	// JSONRaw shows the lines as read.
	JSONRaw JSONMode = iota
	// JSONPretty shows each object indented, one key a row.
	JSONPretty
	// JSONFields shows only the chosen top-level fields of each object, as key=value.
	JSONFields
)

// Next is the mode a toggle goes to: raw → pretty → fields → raw.
func (m JSONMode) Next() JSONMode { return (m + 1) % 3 }

// String names the mode: "raw", "pretty", "fields".
func (m JSONMode) String() string {
	switch m {
	case JSONPretty:
		return "pretty"
	case JSONFields:
		return "fields"
	}
	return "raw"
}

// Rendered is a line's text as a JSON mode shows it, and where its keys are (byte ranges of Text, the
// quotes included in pretty mode) for the view to color them. Text holds newlines in pretty mode.
type Rendered struct {
	Text string
	Keys [][2]int
}

// RenderJSON returns text as mode shows it. ok is false, and the line is to be shown as read, in raw mode,
// when text is not one JSON object (spaces around it allowed), and in fields mode when it has none of
// fields. A plain function.
func RenderJSON(text string, mode JSONMode, fields []string) (r Rendered, ok bool) {
	if mode == JSONRaw || !looksLikeObject(text) {
		return Rendered{}, false
	}
	switch mode {
	case JSONPretty:
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(strings.TrimSpace(text)), "", "  "); err != nil {
			return Rendered{}, false
		}
		out := b.String()
		return Rendered{Text: out, Keys: keyRanges(out)}, true
	case JSONFields:
		return renderFields(text, fields)
	}
	return Rendered{}, false
}

// looksLikeObject is a cheap test that text may be a JSON object, before decoding it.
func looksLikeObject(text string) bool {
	t := strings.TrimSpace(text)
	return len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}'
}

// keyRanges finds the keys in indented JSON: the strings followed by a colon.
func keyRanges(s string) [][2]int {
	var keys [][2]int
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		start := i
		for i++; i < len(s) && s[i] != '"'; i++ {
			if s[i] == '\\' {
				i++
			}
		}
		end := i + 1
		j := end
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j < len(s) && s[j] == ':' {
			keys = append(keys, [2]int{start, min(end, len(s))})
		}
	}
	return keys
}

// topLevel decodes text's top-level fields in order (nil, false when it is not one JSON object).
func topLevel(text string) (keys []string, values map[string]json.RawMessage, ok bool) {
	if !looksLikeObject(text) {
		return nil, nil, false
	}
	dec := json.NewDecoder(strings.NewReader(text))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, nil, false
	}
	values = map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		if _, dup := values[key]; !dup {
			keys = append(keys, key)
		}
		values[key] = v
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') || dec.More() {
		return nil, nil, false
	}
	return keys, values, true
}

// renderFields is text's fields, those it has, as key=value: a string without spaces or quotes bare, any
// other value as compact JSON.
func renderFields(text string, fields []string) (Rendered, bool) {
	_, values, ok := topLevel(text)
	if !ok {
		return Rendered{}, false
	}
	var b strings.Builder
	var keys [][2]int
	for _, f := range fields {
		v, has := values[f]
		if !has {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		keys = append(keys, [2]int{b.Len(), b.Len() + len(f)})
		b.WriteString(f)
		b.WriteByte('=')
		b.WriteString(fieldValue(v))
	}
	if len(keys) == 0 {
		return Rendered{}, false
	}
	return Rendered{Text: b.String(), Keys: keys}, true
}

// fieldValue is one value as the fields mode shows it.
func fieldValue(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		if s != "" && !strings.ContainsAny(s, " \t\"=\n") {
			return s
		}
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return string(v)
	}
	return b.String()
}

// JSONKeys returns the top-level keys of text in order; nil when it is not one JSON object.
func JSONKeys(text string) []string {
	keys, _, _ := topLevel(text)
	return keys
}

// FieldsSeen returns the top-level keys of the JSON objects among texts, in the order first seen, at most
// limit of them (a plain function).
func FieldsSeen(texts []string, limit int) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range texts {
		for _, k := range JSONKeys(t) {
			if !seen[k] && len(out) < limit {
				seen[k] = true
				out = append(out, k)
			}
		}
		if len(out) >= limit {
			break
		}
	}
	return out
}
