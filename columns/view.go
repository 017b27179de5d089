package columns

import (
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"kscope/watch"
)

// viewColumnRX is k9s's column definition (internal/render/cust_col.go): NAME[:JSONPATH][|FLAGS].
var viewColumnRX = regexp.MustCompile(`^([\w\s%/-]+):?([\w\W]*?)\|?([NTWSLRH]{0,3})$`)

// ViewColumn is one entry of a views.yaml columns list, as k9s reads it: a column of the server's Table by
// name, or a column computed by a JSONPath, with k9s's flags.
type ViewColumn struct {
	Name string
	// Expr is the column's JSONPath template ("{.spec.nodeName}"); "" names a server column.
	Expr string
	// Wide shows the column in wide mode only (W); Hide never shows it (H); Number aligns it right and orders
	// it as a number (N); Time marks a time (T: a creationTimestamp shows as an age).
	Wide, Hide, Number, Time bool
}

// ParseViewColumn reads one column definition: NAME, NAME|FLAGS, NAME:JSONPATH or NAME:JSONPATH|FLAGS (flags
// among N T W S L R H; L and R, alignment, are accepted and ignored).
func ParseViewColumn(def string) (ViewColumn, error) {
	m := viewColumnRX.FindStringSubmatch(def)
	if m == nil {
		return ViewColumn{}, fmt.Errorf("invalid column definition %q", def)
	}
	expr, err := relaxedJSONPath(m[2])
	if err != nil {
		return ViewColumn{}, fmt.Errorf("column %q: %w", def, err)
	}
	c := ViewColumn{Name: strings.TrimSpace(m[1]), Expr: expr}
	for _, f := range m[3] {
		switch f {
		case 'W':
			c.Wide = true
		case 'S':
			c.Wide = false
		case 'H':
			c.Hide = true
		case 'N':
			c.Number = true
		case 'T':
			c.Time = true
		}
	}
	return c, nil
}

// View is one views.yaml entry made ready: its columns in order and its sort.
type View struct {
	Columns []ViewColumn
	// SortColumn names the column to sort by ("" for the natural order); Descending reverses it.
	SortColumn string
	Descending bool
}

// NewView parses an entry's column definitions and its sortColumn (NAME:asc or NAME:desc), compiling the
// JSONPath ones so that a bad one is reported now.
func NewView(defs []string, sortColumn string) (View, error) {
	var v View
	for _, d := range defs {
		c, err := ParseViewColumn(d)
		if err != nil {
			return View{}, err
		}
		if c.Expr != "" {
			if _, err := watch.JSONPathColumn(c.Name, c.Expr); err != nil {
				return View{}, err
			}
		}
		v.Columns = append(v.Columns, c)
	}
	if sortColumn != "" {
		name, dir, ok := strings.Cut(sortColumn, ":")
		if !ok || (dir != "asc" && dir != "desc") {
			return View{}, fmt.Errorf("invalid sortColumn %q: must be NAME:asc or NAME:desc", sortColumn)
		}
		v.SortColumn, v.Descending = strings.TrimSpace(name), dir == "desc"
	}
	return v, nil
}

// Computed tells whether a column is a JSONPath one: such a view reads the objects themselves.
func (v View) Computed() bool {
	for _, c := range v.Columns {
		if c.Expr != "" {
			return true
		}
	}
	return false
}

// ObjectColumns returns the view's columns as an object view computes them (hidden ones left out): the JSONPath
// ones, and for a server column's name the cell kscope can compute from the object (NAME, NAMESPACE, AGE,
// LABELS). A server column it cannot compute shows "n/a", as k9s shows a column it does not find, and is
// listed in unknown.
func (v View) ObjectColumns() (cols []watch.ObjectColumn, unknown []string, err error) {
	for _, c := range v.Columns {
		if c.Hide {
			continue
		}
		var oc watch.ObjectColumn
		switch {
		case c.Expr != "":
			if oc, err = watch.JSONPathColumn(c.Name, c.Expr); err != nil {
				return nil, nil, err
			}
			if c.Time && c.Expr == "{.metadata.creationTimestamp}" {
				oc = ageColumn(c.Name)
			}
		default:
			var ok bool
			if oc, ok = metadataColumn(c.Name); !ok {
				oc = watch.FuncColumn(watch.Column{Name: c.Name, Type: "string"}, func(map[string]any) string { return "n/a" })
				unknown = append(unknown, c.Name)
			}
		}
		if c.Number {
			oc.Column.Type = "number"
		}
		if c.Wide {
			oc.Column.Priority = 1
		}
		cols = append(cols, oc)
	}
	return cols, unknown, nil
}

// metadataColumn is the column an object view computes for a server column's name, from the object's metadata.
func metadataColumn(name string) (watch.ObjectColumn, bool) {
	str := func(path ...string) func(map[string]any) string {
		return func(obj map[string]any) string {
			var v any = obj
			for _, p := range path {
				m, _ := v.(map[string]any)
				v = m[p]
			}
			s, _ := v.(string)
			return s
		}
	}
	switch strings.ToUpper(name) {
	case "NAME":
		return watch.FuncColumn(watch.Column{Name: name, Type: "string", Format: "name"}, str("metadata", "name"),
			[]string{"metadata", "name"}), true
	case "NAMESPACE":
		return watch.FuncColumn(watch.Column{Name: name, Type: "string"}, str("metadata", "namespace"),
			[]string{"metadata", "namespace"}), true
	case "AGE":
		return ageColumn(name), true
	case "LABELS":
		return watch.FuncColumn(watch.Column{Name: name, Type: "string"}, labelsCell,
			[]string{"metadata", "labels"}), true
	}
	return watch.ObjectColumn{}, false
}

// ageColumn is an Age column: the table shows the object's age from its creation time.
func ageColumn(name string) watch.ObjectColumn {
	return watch.FuncColumn(watch.Column{Name: name, Type: "string", Age: true},
		func(map[string]any) string { return "" }, []string{"metadata", "creationTimestamp"})
}

// labelsCell prints the labels as kubectl's --show-labels does: k=v,… sorted, or <none>.
func labelsCell(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	raw, _ := meta["labels"].(map[string]any)
	set := make(labels.Set, len(raw))
	for k, v := range raw {
		s, _ := v.(string)
		set[k] = s
	}
	return labels.FormatLabels(set)
}
