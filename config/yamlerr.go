package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	yaml3 "go.yaml.in/yaml/v3"
)

// typeProblem describes a value of the wrong type (a word where a number belongs) as one line: the line of
// data it is on (found with a YAML node tree, as sigs.k8s.io/yaml's JSON decoding has lost it), the field's
// path, and the types. ok is false when err is not a type error.
func typeProblem(data []byte, err error) (text string, ok bool) {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return "", false
	}
	text = fmt.Sprintf("want %s, not %s", typeWord(te.Type.String()), te.Value)
	if te.Field != "" {
		text = te.Field + ": " + text
	}
	if line := fieldLine(data, te.Field); line > 0 {
		text = fmt.Sprintf("line %d: %s", line, text)
	}
	return text, true
}

// typeWord names a Go type as a configuration file's reader thinks of it.
func typeWord(goType string) string {
	switch {
	case strings.HasPrefix(goType, "map["):
		return "a mapping"
	case goType == "bool" || strings.HasSuffix(goType, "*bool"):
		return "true or false"
	case strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	case goType == "string", strings.HasSuffix(goType, "Color"):
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "a list"
	}
	return "a mapping"
}

// fieldLine is the line of the value at path (dotted keys: k9s.logger.buffer) in data, or 0.
func fieldLine(data []byte, path string) int {
	var doc yaml3.Node
	if yaml3.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return 0
	}
	n := doc.Content[0]
	for _, key := range strings.Split(path, ".") {
		if n.Kind != yaml3.MappingNode {
			return n.Line
		}
		var next *yaml3.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if strings.EqualFold(n.Content[i].Value, key) { // encoding/json matches keys so
				next = n.Content[i+1]
			}
		}
		if next == nil {
			return n.Line
		}
		n = next
	}
	return n.Line
}
