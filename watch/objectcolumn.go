package watch

import (
	"fmt"
	"strings"
	"sync"

	"k8s.io/cli-runtime/pkg/printers"
	"k8s.io/client-go/util/jsonpath"
)

// ObjectColumn is one column of an ObjectSource: its definition, the cell it computes from an object, and the
// fields of the object the cell reads (the source keeps only those). A column is a JSONPath (JSONPathColumn,
// kubectl's custom columns) or any Go function over the object (FuncColumn), such as one computing a status
// from several fields. ObjectColumns are plain values, safe to copy and to share across sources.
type ObjectColumn struct {
	Column Column
	// Cell returns the column's text for obj, the object's JSON content as the source keeps it (only Fields of
	// it, plus the metadata rows need). It must be safe for concurrent use and must not modify obj.
	Cell func(obj map[string]any) string
	// Fields are the paths Cell reads; nil reads no field of the object.
	Fields *Fields
	// Whole, when set, computes the cell from the whole object as the server sent it, in the informer's
	// transform, before the object is cut down (Cell and Fields are then unused): the source keeps the cell's
	// text, not the fields it read. It suits cells that read much of an object (a health computed from its
	// spec, status and metadata). It must be safe for concurrent use and must not modify obj.
	Whole func(obj map[string]any) string
	// kstatus marks HealthColumn, whose cells a source over a built-in kind may compute from the protobuf
	// encoding of the objects instead (NewObjectSourceWithConfig).
	kstatus bool
}

// WholeColumn returns a column computed by cell from the whole object, once per version of it, in the
// informer's transform (see ObjectColumn.Whole).
func WholeColumn(col Column, cell func(obj map[string]any) string) ObjectColumn {
	return ObjectColumn{Column: col, Whole: cell}
}

// FuncColumn returns a column computed by cell from the fields paths name (each a list of field names from the
// object's root; a path is kept whole below its last name).
func FuncColumn(col Column, cell func(obj map[string]any) string, paths ...[]string) ObjectColumn {
	f := &Fields{}
	for _, p := range paths {
		f.Add(p...)
	}
	return ObjectColumn{Column: col, Cell: cell, Fields: f}
}

// JSONPathColumn returns the column header whose cells are the JSONPath template expr over each object, as
// `kubectl get -o custom-columns` prints them: every result joined with ",", "<none>" when there is none,
// terminal escapes made harmless. expr is a complete template ("{.metadata.name}"; kubectl's relaxed forms are
// turned into one by the custom-columns parsing, package columns). A template that does not parse is an
// error; one that fails on an object (a filter over a map) gives that object the cell "<error: …>".
func JSONPathColumn(header, expr string) (ObjectColumn, error) {
	p := &jsonPathCell{jp: jsonpath.New(header).AllowMissingKeys(true)}
	if err := p.jp.Parse(expr); err != nil {
		return ObjectColumn{}, fmt.Errorf("column %s: %w", header, err)
	}
	parsed, err := jsonpath.Parse(header, expr)
	if err != nil {
		return ObjectColumn{}, fmt.Errorf("column %s: %w", header, err)
	}
	f := &Fields{}
	jsonPathFields(f, parsed.Root)
	return ObjectColumn{Column: Column{Name: header, Type: "string"}, Cell: p.cell, Fields: f}, nil
}

// jsonPathCell evaluates one parsed template; a JSONPath is not safe for concurrent use (its evaluation keeps
// state), hence the lock.
type jsonPathCell struct {
	mu sync.Mutex
	jp *jsonpath.JSONPath
}

// cell is kubectl's CustomColumnsPrinter.printOneObject for one column.
func (p *jsonPathCell) cell(obj map[string]any) string {
	p.mu.Lock()
	values, err := p.jp.FindResults(obj)
	p.mu.Unlock()
	if err != nil {
		return "<error: " + err.Error() + ">"
	}
	var texts []string
	if len(values) == 0 || len(values[0]) == 0 {
		texts = append(texts, "<none>")
	}
	for _, vs := range values {
		for _, v := range vs {
			texts = append(texts, printers.EscapeTerminal(fmt.Sprint(v.Interface())))
		}
	}
	return strings.Join(texts, ",")
}

// jsonPathFields adds to f the fields template root reads: the path of each field step from where it applies,
// through array steps and wildcards, and for a filter the fields its operands read of each element. Anything
// that may read below its point in ways not followed here (recursive descent) keeps that point whole.
func jsonPathFields(f *Fields, root *jsonpath.ListNode) {
	for _, n := range root.Nodes {
		if list, ok := n.(*jsonpath.ListNode); ok {
			walkFields([]*Fields{f}, list.Nodes)
		}
	}
}

// walkFields follows nodes from the points at, returning where they end.
func walkFields(at []*Fields, nodes []jsonpath.Node) []*Fields {
	for _, n := range nodes {
		var next []*Fields
		switch n := n.(type) {
		case *jsonpath.FieldNode:
			for _, p := range at {
				next = append(next, p.child(n.Value))
			}
		case *jsonpath.WildcardNode:
			for _, p := range at {
				next = append(next, p.anyChild())
			}
		case *jsonpath.ArrayNode, *jsonpath.IntNode, *jsonpath.FloatNode, *jsonpath.BoolNode, *jsonpath.TextNode:
			next = at // an index or a literal: no field of its own
		case *jsonpath.ListNode:
			next = walkFields(at, n.Nodes)
		case *jsonpath.UnionNode:
			for _, branch := range n.Nodes {
				next = append(next, walkFields(at, branch.Nodes)...)
			}
		case *jsonpath.FilterNode:
			walkFields(at, n.Left.Nodes)
			walkFields(at, n.Right.Nodes)
			next = at
		default: // recursive descent, identifiers: keep all below
			for _, p := range at {
				p.Whole()
			}
			return nil
		}
		at = next
	}
	for _, p := range at {
		if p.leaf() {
			p.Whole()
		}
	}
	return at
}
