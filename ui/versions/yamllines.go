package versions

import (
	"fmt"
	"sort"

	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	"kscope/history"
)

// yamlLine is the field one line of an object's YAML shows. A structural line opens a map or a list (its
// content is on the lines below); a value's continuation lines (a block or folded string) have the field of
// the line that opens them.
type yamlLine struct {
	path       fieldpath.Path
	structural bool
}

// mapYAMLLines returns, for each line of text (obj as sigs.k8s.io/yaml prints it), the field it shows, found
// by walking the YAML's nodes together with the object: mapping keys are field names, list items are keyed
// as the managers' sets key that list (known: their union) — by key fields k:{...}, by value v:, or by
// index i: — and by index where no manager owns any item. Lines before the first field (none in practice)
// have an empty path.
func mapYAMLLines(text string, obj map[string]any, known *fieldpath.Set) ([]yamlLine, error) {
	var doc yaml3.Node
	if err := yaml3.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("read the YAML's lines: %w", err)
	}
	lines := make([]yamlLine, len(history.TextLines(text)))
	set := make([]bool, len(lines))
	w := lineWalker{lines: lines, set: set}
	if len(doc.Content) == 1 {
		w.walk(doc.Content[0], obj, nil, known)
	}
	for i := range lines {
		if !set[i] && i > 0 {
			lines[i] = yamlLine{path: lines[i-1].path}
		}
	}
	return lines, nil
}

// lineWalker assigns fields to lines; a later (deeper) assignment of a line wins.
type lineWalker struct {
	lines []yamlLine
	set   []bool
}

func (w *lineWalker) mark(line int, p fieldpath.Path, structural bool) {
	if i := line - 1; i >= 0 && i < len(w.lines) {
		w.lines[i], w.set[i] = yamlLine{path: p, structural: structural}, true
	}
}

// walk visits node, which shows value at path p; known is the union of the owners' sets under p.
func (w *lineWalker) walk(node *yaml3.Node, val any, p fieldpath.Path, known *fieldpath.Set) {
	switch node.Kind {
	case yaml3.MappingNode:
		m, _ := val.(map[string]any)
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			pe := fieldpath.FieldNameElement(k.Value)
			child := appendPath(p, pe)
			w.mark(k.Line, child, isCollection(v))
			w.walk(v, m[k.Value], child, known.WithPrefix(pe))
		}
	case yaml3.SequenceNode:
		items, _ := val.([]any)
		sample := sampleElement(known)
		for i, item := range node.Content {
			var v any
			if i < len(items) {
				v = items[i]
			}
			pe := itemElement(sample, i, v)
			child := appendPath(p, pe)
			w.mark(item.Line, child, isCollection(item))
			w.walk(item, v, child, known.WithPrefix(pe))
		}
	}
}

// isCollection tells whether node is a map or list with content (shown on the lines below its key).
func isCollection(node *yaml3.Node) bool {
	return (node.Kind == yaml3.MappingNode || node.Kind == yaml3.SequenceNode) && len(node.Content) > 0
}

// appendPath returns p followed by pe, sharing nothing with p's later appends.
func appendPath(p fieldpath.Path, pe fieldpath.PathElement) fieldpath.Path {
	return append(p[:len(p):len(p)], pe)
}

// sampleElement returns one of the path elements the managers' sets hold directly under a list (how they
// key its items), or nil when they hold none.
func sampleElement(known *fieldpath.Set) *fieldpath.PathElement {
	var all []fieldpath.PathElement
	known.Members.Iterate(func(pe fieldpath.PathElement) { all = append(all, pe) })
	known.Children.Iterate(func(pe fieldpath.PathElement) { all = append(all, pe) })
	if len(all) == 0 {
		return nil
	}
	return &all[0]
}

// itemElement is the path element of item, the i-th of a list whose items the sets key like sample: by the
// same key fields, by value, or (sample nil, or an index) by position.
func itemElement(sample *fieldpath.PathElement, i int, item any) fieldpath.PathElement {
	switch {
	case sample != nil && sample.Key != nil:
		m, _ := item.(map[string]any)
		fields := make([]value.Field, 0, len(*sample.Key))
		for _, f := range *sample.Key {
			if v, ok := m[f.Name]; ok {
				fields = append(fields, value.Field{Name: f.Name, Value: value.NewValueInterface(v)})
			}
		}
		sort.Slice(fields, func(a, b int) bool { return fields[a].Name < fields[b].Name })
		return fieldpath.KeyElement(fields...)
	case sample != nil && sample.Value != nil:
		return fieldpath.ValueElement(value.NewValueInterface(item))
	}
	return fieldpath.IndexElement(i)
}
