package watch

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unique"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// internMaxLen bounds the cells that are interned: short cells repeat across rows ("Running", "1/1", node names);
// long ones are mostly unique.
const internMaxLen = 40

// converter turns decoded Tables (or plain lists and objects) into rows. It remembers the column definitions,
// which the server sends only with a list and the first watch event. It is safe for concurrent use.
type converter struct {
	allNamespaces bool
	// namespace is the namespace of rows listed without object metadata (includeObject=None), which are keyed
	// by their name cell: the view's namespace, or "" for a cluster-scoped resource.
	namespace string
	// onColumns is called (without locks held) when the column definitions change.
	onColumns func()

	labels labelSets

	mu      sync.Mutex
	server  []metav1.TableColumnDefinition
	columns []Column
	nameCol int    // index of the name column in the server's cells, or -1
	ageCol  int    // index of the Age column in the server's cells, or -1
	plain   bool   // the server answered without a Table: columns are NAME and AGE
	version uint64 // counts column changes
}

func newConverter(allNamespaces bool, onColumns func()) *converter {
	return &converter{allNamespaces: allNamespaces, onColumns: onColumns, nameCol: -1, ageCol: -1}
}

// Columns returns the current columns (nil until known). The slice must not be modified.
func (c *converter) Columns() []Column {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.columns
}

// columnsVersion returns the current columns and a number that changes whenever they do.
func (c *converter) columnsVersion() ([]Column, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.columns, c.version
}

// ageCell returns the index of the Age cell in the rows' cells (counting the NAMESPACE cell of all-namespaces
// mode), or -1 when there is none or the columns are not known yet.
func (c *converter) ageCell() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.ageCol < 0:
		return -1
	case c.allNamespaces:
		return c.ageCol + 1
	}
	return c.ageCol
}

// plainColumnDefs are the columns of a server that does not print Tables, as kubectl shows them.
var plainColumnDefs = []metav1.TableColumnDefinition{
	{Name: "Name", Type: "string", Format: "name"},
	{Name: "Age", Type: "date"},
}

// setColumns records the server's column definitions. It returns the state needed to convert rows.
func (c *converter) setColumns(defs []metav1.TableColumnDefinition, plain bool) {
	c.mu.Lock()
	changed := !sameDefs(c.server, defs) || c.plain != plain || c.columns == nil
	if changed {
		c.server, c.plain = defs, plain
		c.columns = buildColumns(defs, c.allNamespaces)
		c.version++
		c.nameCol, c.ageCol = -1, -1
		for i, d := range defs {
			if d.Format == "name" && c.nameCol < 0 {
				c.nameCol = i
			}
			if isAgeColumn(d) && c.ageCol < 0 {
				c.ageCol = i
			}
		}
	}
	c.mu.Unlock()
	if changed && c.onColumns != nil {
		c.onColumns()
	}
}

func sameDefs(a, b []metav1.TableColumnDefinition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// buildColumns converts the server's definitions to Columns, with a NAMESPACE column first in all-namespaces mode.
func buildColumns(defs []metav1.TableColumnDefinition, allNamespaces bool) []Column {
	cols := make([]Column, 0, len(defs)+1)
	if allNamespaces {
		cols = append(cols, Column{Name: "Namespace", Type: "string", Description: "The object's namespace."})
	}
	for _, d := range defs {
		cols = append(cols, Column{
			Name: d.Name, Type: d.Type, Format: d.Format, Description: d.Description, Priority: d.Priority,
			Age: isAgeColumn(d),
		})
	}
	return cols
}

// isAgeColumn tells whether the column shows the object's age (computed from creationTimestamp): the server
// names it Age and describes it with ObjectMeta's creationTimestamp documentation, or (a CRD's printer
// column) describes it by its JSONPath .metadata.creationTimestamp.
func isAgeColumn(d metav1.TableColumnDefinition) bool {
	if strings.HasSuffix(d.Description, ".metadata.creationTimestamp") {
		return true
	}
	return strings.EqualFold(d.Name, "age") &&
		(d.Description == "" || strings.HasPrefix(d.Description, "CreationTimestamp"))
}

// convert turns a decoded list or watch object into rows, recording column definitions when it carries them.
// A Status yields its error.
func (c *converter) convert(t *wireTable) ([]*rowObject, error) {
	if st, ok := t.status(); ok {
		return nil, statusError(st)
	}
	if t.isTable() {
		if len(t.ColumnDefinitions) > 0 {
			c.setColumns(t.ColumnDefinitions, false)
		}
		out := make([]*rowObject, 0, len(t.Rows))
		for i := range t.Rows {
			out = append(out, c.tableRow(&t.Rows[i].Object.Metadata, t.Rows[i].Cells))
		}
		return out, nil
	}
	c.setColumns(plainColumnDefs, true)
	if t.Items != nil || strings.HasSuffix(t.Kind, "List") {
		out := make([]*rowObject, 0, len(t.Items))
		for i := range t.Items {
			out = append(out, c.plainRow(&t.Items[i].Metadata))
		}
		return out, nil
	}
	return []*rowObject{c.plainRow(&t.Metadata)}, nil
}

// tableRow builds the row of one Table row.
func (c *converter) tableRow(m *wireMeta, cells []wireCell) *rowObject {
	return c.tableRowShared(m, cells, intern)
}

// tableRowShared is tableRow, sharing the texts of repeated cells through share.
func (c *converter) tableRowShared(m *wireMeta, cells []wireCell, share func(string) string) *rowObject {
	c.mu.Lock()
	n, nameCol, ageCol := len(c.server), c.nameCol, c.ageCol
	c.mu.Unlock()
	if n == 0 {
		n = len(cells)
	}
	off := 0
	if c.allNamespaces {
		off = 1
	}
	if m.Name == "" && m.ResourceVersion == "" && nameCol >= 0 && nameCol < len(cells) {
		m = c.metaFromCells(m, cells, nameCol, ageCol)
	}
	out := make([]string, n+off)
	if off == 1 {
		out[0] = share(m.Namespace)
	}
	for i := 0; i < n && i < len(cells); i++ {
		s := string(cells[i])
		if i != nameCol {
			s = share(s)
		}
		out[i+off] = s
	}
	ageCell := -1
	if ageCol >= 0 {
		ageCell = ageCol + off
	}
	return c.wireRowObject(m, out, ageCell)
}

// metaFromCells makes the metadata of a row listed without its object (includeObject=None): the name cell,
// the view's namespace (unless the row names its own) and a creation time estimated from the Age cell (exact
// once the metadata is filled in). Such rows have no resourceVersion, UID or labels yet.
func (c *converter) metaFromCells(from *wireMeta, cells []wireCell, nameCol, ageCol int) *wireMeta {
	m := &wireMeta{Name: string(cells[nameCol]), Namespace: from.Namespace}
	if m.Namespace == "" {
		m.Namespace = c.namespace
	}
	if ageCol >= 0 && ageCol < len(cells) {
		if secs, ok := parseAge(string(cells[ageCol])); ok {
			m.CreationTimestamp = metav1.NewTime(time.Now().Add(-time.Duration(secs) * time.Second).Truncate(time.Second))
		}
	}
	return m
}

// keyedByName tells whether rows without object metadata can be keyed: the table has a name column.
func (c *converter) keyedByName() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nameCol >= 0
}

// nameCell returns the text of the name cell of cells, false when there is none.
func (c *converter) nameCell(cells []wireCell) (string, bool) {
	c.mu.Lock()
	i := c.nameCol
	c.mu.Unlock()
	if i < 0 || i >= len(cells) {
		return "", false
	}
	return string(cells[i]), true
}

// plainRow builds a NAME, AGE row for a server that does not print Tables.
func (c *converter) plainRow(m *wireMeta) *rowObject {
	var out []string
	if c.allNamespaces {
		out = append(out, intern(m.Namespace))
	}
	out = append(out, m.Name, FormatAge(time.Since(m.CreationTimestamp.Time)))
	return c.wireRowObject(m, out, len(out)-1)
}

// wireRowObject builds the row of m with cells; cell ageCell (-1 for none) is the Age cell, left out of the
// search text (a filter matches the age recomputed at match time, Filter.MatchShown).
//
// The row's name is the end of its Key, and so is each cell that reads the same (the name cell): one copy of
// the name a row, not three (the metadata's, the cell's and the key's).
func (c *converter) wireRowObject(m *wireMeta, cells []string, ageCell int) *rowObject {
	key := rowKey(m.Namespace, m.Name)
	name := key[len(key)-len(m.Name):]
	for i := range cells {
		if cells[i] == name {
			cells[i] = name
		}
	}
	r := &Row{
		Key:             key,
		Namespace:       m.Namespace,
		Name:            name,
		UID:             m.UID,
		ResourceVersion: m.ResourceVersion,
		Created:         m.CreationTimestamp.Time,
		Labels:          c.labels.share(m.Labels),
		Cells:           cells,
		text:            searchText(cells, ageCell),
	}
	var ann map[string]string
	if len(m.Annotations) > 0 {
		ann = m.Annotations
	}
	return newRowObject(r, ann)
}

// searchText returns the cells lower-cased and joined by "\n" for Filter, or "" if a cell is not ASCII. The
// cell at skip (the Age cell; -1 for none) is left empty: its stored text goes stale at once.
func searchText(cells []string, skip int) string {
	n := len(cells)
	for i, c := range cells {
		if i == skip {
			continue
		}
		if !isASCII(c) {
			return ""
		}
		n += len(c)
	}
	b := make([]byte, 0, n)
	for i, c := range cells {
		if i > 0 {
			b = append(b, '\n')
		}
		if i == skip {
			continue
		}
		for j := 0; j < len(c); j++ {
			ch := c[j]
			if ch >= 'A' && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			b = append(b, ch)
		}
	}
	return string(b)
}

// intern returns a canonical copy of a short string so that rows share repeated cell texts.
func intern(s string) string {
	if len(s) == 0 || len(s) > internMaxLen {
		return s
	}
	return unique.Make(s).Value()
}

// maxLabelSets bounds the label sets a labelSets keeps for sharing; past it, it starts afresh (the maps
// already shared stay valid).
const maxLabelSets = 8192

// labelSets shares label maps between rows: the pods of one workload carry the same labels, and a map per
// row would cost a few hundred bytes each. Shared maps are never modified (Rows are immutable). It is safe
// for concurrent use.
type labelSets struct {
	mu   sync.Mutex
	sets map[string]map[string]string
}

// share returns a map equal to l, shared with every row of the same labels since the last reset, its keys
// and short values interned; nil for no labels.
func (ls *labelSets) share(l map[string]string) map[string]string {
	if len(l) == 0 {
		return nil
	}
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(l[k])
		b.WriteByte(0)
	}
	id := b.String()
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if m, ok := ls.sets[id]; ok {
		return m
	}
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[intern(k)] = intern(v)
	}
	if ls.sets == nil || len(ls.sets) >= maxLabelSets {
		ls.sets = map[string]map[string]string{}
	}
	ls.sets[id] = out
	return out
}

// statusError turns a Status the server sent into an API error.
func statusError(st *metav1.Status) error {
	if st.Status == metav1.StatusSuccess {
		return fmt.Errorf("unexpected status %q", st.Message)
	}
	return apierrors.FromObject(st)
}
