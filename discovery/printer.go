package discovery

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"k8s.io/cli-runtime/pkg/printers"
)

// ResourcePrinter writes resources exactly as `kubectl api-resources` does: a table through cli-runtime's
// tab writer (NAME SHORTNAMES APIVERSION NAMESPACED KIND, plus VERBS CATEGORIES for "wide"), or one
// "plural.group" per line for "name". A ResourcePrinter is a plain value, safe for concurrent use.
type ResourcePrinter struct {
	// Output is "" (table), "wide" or "name".
	Output string
	// NoHeaders leaves out the table's header line.
	NoHeaders bool
}

// Validate rejects an output format kubectl api-resources does not print.
func (p ResourcePrinter) Validate() error {
	if !slices.Contains([]string{"", "wide", "name"}, p.Output) {
		return fmt.Errorf("--output %s is not available", p.Output)
	}
	return nil
}

// Print writes rs, in the given order, to w.
func (p ResourcePrinter) Print(w io.Writer, rs []Resource) error {
	if p.Output == "name" {
		var b strings.Builder
		for _, r := range rs {
			b.WriteString(r.FullName())
			b.WriteByte('\n')
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	tw := printers.GetNewTabWriter(w)
	wide := p.Output == "wide"
	if !p.NoHeaders {
		fmt.Fprintln(tw, strings.Join(ResourceColumns(wide), "\t"))
	}
	for _, r := range rs {
		fmt.Fprintln(tw, strings.Join(ResourceCells(r, wide), "\t"))
	}
	return tw.Flush()
}

// ResourceColumns returns the columns `kubectl api-resources` prints; wide adds VERBS and CATEGORIES.
func ResourceColumns(wide bool) []string {
	columns := []string{"NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND"}
	if wide {
		columns = append(columns, "VERBS", "CATEGORIES")
	}
	return columns
}

// ResourceCells returns r's cells in the columns of ResourceColumns(wide), as `kubectl api-resources` prints
// them.
func ResourceCells(r Resource, wide bool) []string {
	cells := []string{r.Name, strings.Join(r.ShortNames, ","), r.APIVersion(), fmt.Sprint(r.Namespaced), r.Kind}
	if wide {
		cells = append(cells, strings.Join(r.Verbs, ","), strings.Join(r.Categories, ","))
	}
	return cells
}
